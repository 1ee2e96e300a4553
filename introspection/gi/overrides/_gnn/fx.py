# torch.fx: symbolic_trace records a module's forward into a Gnn.Graph
#
# The tracer runs forward once with Proxy values in place of tensors, as torch.fx does: a
# Proxy records what is done to it (operators become call_function nodes with the operator
# module's functions as targets, tensor methods call_method nodes), calls of gnn's own modules
# (the leaves, torch's default: every module of nn but Sequential) call_module nodes, and
# calls of gnn's functions (Gnn.*, gnn.*, gnn.nn.functional.*) with a Proxy among their
# arguments call_function nodes. doc/design/fx.md says why the recording is done in Python.
#
# SPDX-License-Identifier: LGPL-2.1-or-later
import collections as _collections
import inspect as _inspect
import operator as _operator
import sys as _sys
import warnings as _warnings

from gi.repository import GObject

from .base import Gnn
from . import data as _data
from . import module as _module

__all__ = []


def _export(obj):
    __all__.append(obj.__name__)
    return obj


@_export
class fx_TraceError(ValueError):
    """torch.fx.proxy.TraceError: what a traced forward cannot do with a Proxy."""


# the callables of call_function nodes, by the target string their node holds
_functions = {}


def _target_string(fn, public=None):
    """The string a call_function node holds for @fn: its module and name, as torch.fx's
    _get_qualified_name writes it ('operator.add'); for a function of gnn, the public name
    the traced forward reached it by (@public: 'gnn.relu', 'gnn.nn.functional.relu'), as
    torch.fx writes 'torch.relu'."""
    for key, value in _functions.items():
        if value is fn:
            return key
    if public is not None:
        key = public
    else:
        mod = getattr(fn, '__module__', None) or 'builtins'
        if mod == '_operator':
            mod = 'operator'
        key = '%s.%s' % (mod, getattr(fn, '__name__', type(fn).__name__))
    base, n = key, 1
    while key in _functions:
        n += 1
        key = '%s#%d' % (base, n)
    _functions[key] = fn
    return key


def _node_value(node):
    v = GObject.Value(Gnn.GraphNode)
    v.set_object(node)
    return v


def _to_arg_value(a):
    if isinstance(a, fx_Proxy):
        return _node_value(a.node)
    if isinstance(a, (list, tuple)):
        inner = Gnn.Args.new()
        for x in a:
            inner.add_value(_to_arg_value(x))
        v = GObject.Value(Gnn.Args)
        v.set_object(inner)
        return v
    return _module._to_value(a)


def _pack(args, kwargs):
    packed = Gnn.Args.new()
    for a in args:
        packed.add_value(_to_arg_value(a))
    for k, a in kwargs.items():
        packed.set_kwarg(k, _to_arg_value(a))
    return packed


def _has_proxy(values):
    for v in values:
        if isinstance(v, fx_Proxy):
            return True
        if isinstance(v, (list, tuple)) and _has_proxy(v):
            return True
        if isinstance(v, dict) and _has_proxy(v.values()):
            return True
    return False


class _PHBase:
    """torch.fx.PH: in concrete_args, a parameter that stays an input of the graph."""

    def __repr__(self):
        return 'PH'


fx_PH = PH = _PHBase()
__all__.append('fx_PH')


@_export
def _assert(condition, message):
    """torch._assert, the check a specialized graph makes of its inputs."""
    if not condition:
        raise AssertionError(message)


def _assert_is_none(value, message):
    """torch.fx._symbolic_trace._assert_is_none."""
    if value is not None:
        raise AssertionError(message)


_functions['gnn._assert'] = _assert   # torch._assert
_functions['gnn.fx._symbolic_trace._assert_is_none'] = _assert_is_none


@_export
class fx_Proxy:
    """torch.fx.Proxy: a value of the traced forward, standing for a node."""

    def __init__(self, node, tracer):
        self.node = node
        self.tracer = tracer

    def __repr__(self):
        return 'Proxy(%s)' % self.node.get_name()

    def __getattr__(self, name):
        if name.startswith('__'):
            raise AttributeError(name)
        return _Attribute(self, name)

    def __getitem__(self, key):
        return self.tracer.create_proxy('call_function', _operator.getitem, (self, key), {})

    def __call__(self, *args, **kwargs):
        raise fx_TraceError('a Proxy cannot be called; %s is a value of the traced forward'
                            % self.node.get_name())

    def __bool__(self):
        raise fx_TraceError('symbolically traced variables cannot be used as inputs to control flow')

    def __iter__(self):
        raise fx_TraceError('Proxy object cannot be iterated: symbolically traced variables '
                            'cannot be used as inputs to control flow')

    def __len__(self):
        raise fx_TraceError("'len' is not supported in symbolic tracing by default")

    def __index__(self):
        raise fx_TraceError('symbolically traced variables cannot be used as inputs to control flow')


class _Attribute(fx_Proxy):
    """x.name during tracing: a call_method node when called, else a getattr node."""

    def __init__(self, root, attr):
        self.root, self.attr, self.tracer = root, attr, root.tracer
        self._node = None

    @property
    def node(self):
        if self._node is None:
            self._node = self.tracer.create_proxy('call_function', getattr,
                                                  (self.root, self.attr), {}).node
        return self._node

    def __call__(self, *args, **kwargs):
        return self.tracer.create_proxy('call_method', self.attr, (self.root,) + args, kwargs)


def _binary(op, reflected=False):
    def method(self, other):
        args = (other, self) if reflected else (self, other)
        return self.tracer.create_proxy('call_function', op, args, {})
    return method


for _name, _op in (('add', _operator.add), ('sub', _operator.sub), ('mul', _operator.mul),
                   ('truediv', _operator.truediv), ('floordiv', _operator.floordiv),
                   ('matmul', _operator.matmul), ('pow', _operator.pow), ('mod', _operator.mod),
                   ('and', _operator.and_), ('or', _operator.or_), ('xor', _operator.xor)):
    setattr(fx_Proxy, '__%s__' % _name, _binary(_op))
    setattr(fx_Proxy, '__r%s__' % _name, _binary(_op, True))
for _name, _op in (('lt', _operator.lt), ('le', _operator.le), ('gt', _operator.gt),
                   ('ge', _operator.ge), ('eq', _operator.eq), ('ne', _operator.ne)):
    setattr(fx_Proxy, '__%s__' % _name, _binary(_op))
for _name, _op in (('neg', _operator.neg), ('pos', _operator.pos), ('invert', _operator.invert),
                   ('abs', _operator.abs)):
    setattr(fx_Proxy, '__%s__' % _name,
            (lambda op: lambda self: self.tracer.create_proxy('call_function', op, (self,), {}))(_op))
fx_Proxy.__hash__ = object.__hash__

_OPS = {'placeholder': Gnn.GraphOp.PLACEHOLDER, 'get_attr': Gnn.GraphOp.GET_ATTR,
        'call_function': Gnn.GraphOp.CALL_FUNCTION, 'call_method': Gnn.GraphOp.CALL_METHOD,
        'call_module': Gnn.GraphOp.CALL_MODULE, 'output': Gnn.GraphOp.OUTPUT}


def _is_gnn_class(cls):
    return cls.__module__ in ('gi.overrides.Gnn', 'gi.repository.Gnn')


# the namespaces whose functions a traced forward may call on a Proxy, with the prefix a
# node's target string and the generated code give their functions (the first namespace that
# holds a function names it)
_NAMESPACES = (('gnn', 'gnn'), ('gnn.nn.functional', 'gnn.nn.functional'),
               ('gnn.linalg', 'gnn.linalg'), ('gi.overrides.Gnn', 'Gnn'))


def _function_namespaces():
    return [(_sys.modules[n], prefix) for n, prefix in _NAMESPACES if n in _sys.modules]


@_export
class fx_Tracer:
    """torch.fx.Tracer: trace (root) records root's forward into a Gnn.Graph."""

    def is_leaf_module(self, m, module_qualified_name):
        """gnn's own modules are leaves, except Sequential, which is traced through
        (torch's default)."""
        return _is_gnn_class(type(m)) and not isinstance(m, Gnn.Sequential)

    def create_proxy(self, kind, target, args, kwargs, name=None):
        if getattr(self, '_tensors', None) is not None:
            args, kwargs = self._create_arg(args), self._create_arg(kwargs)
        if kind == 'call_function':
            target_string = _target_string(target, getattr(self, '_public', {}).get(id(target)))
        else:
            target_string = target
        node = self.graph.create_node(_OPS[kind], target_string, _pack(args, kwargs), name)
        return fx_Proxy(node, self)

    def _create_arg(self, a):
        """@a with each tensor that is not a Proxy replaced by a get_attr Proxy, as torch.fx's
        Tracer.create_arg: a parameter or buffer of root by its path; any other tensor (one
        made inside forward) is set on root as the attribute _tensor_constant<i> (the first
        free i), and each use of it is a get_attr node of its own."""
        if isinstance(a, fx_Proxy):
            return a
        if isinstance(a, Gnn.Tensor):
            path = self._tensors.get(hash(a))
            if path is not None:
                if path not in self._attr_proxies:
                    self._attr_proxies[path] = self.create_proxy('get_attr', path, (), {})
                return self._attr_proxies[path]
            qualname = self._constants.get(hash(a))
            if qualname is None:
                i = 0
                while hasattr(self.root, '_tensor_constant%d' % i):
                    i += 1
                qualname = '_tensor_constant%d' % i
                self._constants[hash(a)] = qualname
                self._constant_values.append(a)   # keeps the tensor (and its hash) alive
                setattr(self.root, qualname, a)
            return self.create_proxy('get_attr', qualname, (), {})
        if isinstance(a, tuple) and not hasattr(a, '_fields'):
            return tuple(self._create_arg(x) for x in a)
        if isinstance(a, list):
            return [self._create_arg(x) for x in a]
        if isinstance(a, dict):
            return {k: self._create_arg(v) for k, v in a.items()}
        return a

    def _path_of(self, obj, kind):
        path = self._paths.get(hash(obj))
        if path is None:
            raise NameError('%s %s is not a part of the traced module' % (kind, type(obj).__name__))
        return path

    def call_module(self, m, forward, args, kwargs):
        path = self._path_of(m, 'module')
        if self.is_leaf_module(m, path):
            return self.create_proxy('call_module', path, args, kwargs)
        if isinstance(m, Gnn.Sequential):
            out = args[0]
            for child in m.children():
                out = child(out)
            return out
        if _is_gnn_class(type(m)):
            raise fx_TraceError('cannot trace inside the C forward of %s; make it a leaf'
                                % type(m).__name__)
        return forward(*args, **kwargs)

    def _placeholders(self, forward, concrete_args):
        """The values forward is traced with: a placeholder node each for its parameters
        after self (with its default as the node's argument), and for a parameter given in
        concrete_args its value, after a placeholder and a check that the traced graph is
        called with that value, as torch.fx's create_args_for_root."""
        if forward is None:
            params = [_inspect.Parameter('input', _inspect.Parameter.POSITIONAL_OR_KEYWORD)]
        else:
            params = list(_inspect.signature(forward).parameters.values())[1:]
        for p in params:
            if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
                raise fx_TraceError('cannot trace a forward with *%s: give it named parameters'
                                    % p.name)
        names = [p.name for p in params]
        if isinstance(concrete_args, tuple):
            if len(concrete_args) != len(names):
                raise RuntimeError('Tracing expected %d arguments but got %d concrete arguments'
                                   % (len(names), len(concrete_args)))
            concrete_args = dict(zip(names, concrete_args))
        concrete_args = dict(concrete_args or {})
        for name in concrete_args:
            if name not in names:
                raise TypeError("concrete_args: forward has no parameter '%s' (it has %s)"
                                % (name, ', '.join(names) or 'none'))
        values = []
        for p in params:
            default = () if p.default is _inspect.Parameter.empty else (p.default,)
            if p.name not in concrete_args:
                values.append(self.create_proxy('placeholder', p.name, default, {}))
                continue
            x = concrete_args[p.name]
            if isinstance(x, (list, tuple, dict)):
                raise fx_TraceError('concrete_args: %s is a %s; gnn specializes a parameter on '
                                    'one value (a bool, number, string, None or fx.PH), not on '
                                    'a structure' % (p.name, type(x).__name__))
            out = self.create_proxy('placeholder', '%s_1' % p.name, default, {})
            if x is PH:
                values.append(out)
                continue
            if x is None:
                self.create_proxy('call_function', _assert_is_none,
                                  (out, '%s has been specialized to have value None but got '
                                   'another value' % p.name), {})
            elif isinstance(x, (bool, int, float, complex, str)):
                eq = self.create_proxy('call_function', _operator.eq, (out, x), {})
                self.create_proxy('call_function', _assert,
                                  (eq, '%s has been specialized to have value %s but got '
                                   'another value' % (p.name, x)), {})
            else:
                _warnings.warn('Was not able to add assertion to guarantee correct input %s to '
                               'specialized function. It is up to the user to make sure that '
                               'your inputs match the inputs you specialized the function with.'
                               % p.name)
            values.append(x)
        return values

    def trace(self, root, concrete_args=None):
        if _is_gnn_class(type(root)) and not isinstance(root, Gnn.Sequential):
            raise fx_TraceError('cannot trace inside the C forward of %s: symbolic_trace takes '
                                'a module written in Python (or a Sequential)' % type(root).__name__)
        self.root = root
        self.graph = _graph_new()
        self._paths = {hash(m): name for name, m in root.named_modules()}
        self._tensors = {}
        for name, p in root.named_parameters():
            self._tensors.setdefault(hash(p), name)
        for name, b in root.named_buffers():
            self._tensors.setdefault(hash(b), name)
        self._attr_proxies = {}
        self._constants, self._constant_values = {}, []
        self._public = {}
        if isinstance(root, Gnn.Sequential):
            forward = None
            proxies = self._placeholders(None, concrete_args)
        else:
            forward = type(root).forward
            proxies = self._placeholders(forward, concrete_args)

        tracer = self
        saved_call = _module.Module.__call__
        saved_getattr = _module.Module.__getattr__
        patched = []

        def traced_call(m, *args, **kwargs):
            return tracer.call_module(m, lambda *a, **k: type(m).forward(m, *a, **k), args, kwargs)

        def traced_getattr(m, name):
            value = saved_getattr(m, name)
            if isinstance(value, Gnn.Tensor) and hash(value) in tracer._tensors:
                path = tracer._tensors[hash(value)]
                if path not in tracer._attr_proxies:
                    tracer._attr_proxies[path] = tracer.create_proxy('get_attr', path, (), {})
                return tracer._attr_proxies[path]
            return value

        def wrap(fn):
            def wrapper(*args, **kwargs):
                if _has_proxy(args) or _has_proxy(kwargs.values()):
                    return tracer.create_proxy('call_function', fn, args, kwargs)
                return fn(*args, **kwargs)
            return wrapper

        # layers with a __call__ of their own (LSTM, RNN, GRU take and give state tuples)
        own_calls = {type(m): type(m).__dict__['__call__'] for m in root.modules()
                     if '__call__' in type(m).__dict__}
        try:
            _module.Module.__call__ = traced_call
            _module.Module.__getattr__ = traced_getattr
            for cls in own_calls:
                cls.__call__ = traced_call
            for ns, prefix in _function_namespaces():
                for name, value in list(vars(ns).items()):
                    if (callable(value) and not isinstance(value, type) and not name.startswith('_')
                            and getattr(value, '__module__', '') != __name__):
                        patched.append((ns, name, value))
                        self._public.setdefault(id(value), '%s.%s' % (prefix, name))
                        setattr(ns, name, wrap(value))
            if forward is None:
                out = tracer.call_module(root, None, tuple(proxies), {})
            else:
                out = forward(root, *proxies)
        finally:
            _module.Module.__call__ = saved_call
            _module.Module.__getattr__ = saved_getattr
            for cls, call in own_calls.items():
                cls.__call__ = call
            for ns, name, value in patched:
                setattr(ns, name, value)
        self.graph.output(_pack((out,), {}))
        return self.graph


# Gnn.Graph and Gnn.GraphNode are final types: torch.fx's spellings are added to them
fx_Graph = Gnn.Graph
_c_create_node = Gnn.Graph.create_node
fx_Graph.nodes = property(lambda self: list(self.get_nodes()), doc='graph.nodes, in order')


def _graph_create_node(self, op, target, args=None, name=None):
    """create_node (op, target, args, name) with torch's op strings."""
    if isinstance(op, str):
        op = _OPS[op]
    return _c_create_node(self, op, target, args, name)


fx_Graph.__str__ = lambda self: self.to_string()
fx_Graph.create_node = _graph_create_node
_c_to_dot = Gnn.Graph.to_dot
fx_Graph.to_dot = lambda self, root=None: _c_to_dot(self, root)
fx_Graph.to_dot.__doc__ = 'graph.to_dot (root=None): the graph as Graphviz DOT text (Gnn.Graph.to_dot)'
_c_to_json = Gnn.Graph.to_json
fx_Graph.to_json = lambda self, pretty=False: _c_to_json(self, pretty)
fx_Graph.to_json.__doc__ = ('graph.to_json (pretty=False): the graph as JSON text, which '
                            'Gnn.Graph.new_from_json (text, -1) reads (Gnn.Graph.to_json)')
_graph_new = Gnn.Graph.new

_node_class = Gnn.GraphNode
_node_class.op = property(lambda self: self.get_op_name(), doc='node.op: the op as torch.fx spells it')
_node_class.name = property(lambda self: self.get_name(), doc='node.name')


def _node_target(self):
    t = self.get_target()
    if self.get_op() == Gnn.GraphOp.CALL_FUNCTION:
        return _functions.get(t) or _loaded_functions.get(t, t)
    return t


# ---- call_function targets of a graph read from JSON ----------------------------------------
#
# A graph's JSON holds a call_function target as the string the tracer gave it: 'operator.add',
# 'gnn.relu', 'gnn.nn.functional.relu', 'builtins.getattr', 'gnn.onnx.ops.Conv'.
# Read back, each must name a function of those namespaces again (or one this process already
# knows by that string); anything else is refused, naming it, before forward can call it.

_loaded_functions = {}    # the names read from JSON, kept apart so that tracing names stay

_LOADABLE_NAMESPACES = (('operator.', 'operator'), ('gnn.nn.functional.', 'gnn.nn.functional'),
                        ('gnn.linalg.', 'gnn.linalg'), ('gnn.', 'gnn'), ('Gnn.', 'gi.overrides.Gnn'))


def _gnn_error(message):
    from gi.repository import GLib
    return GLib.Error(message, GLib.quark_to_string(Gnn.error_quark()), int(Gnn.Error.FILE_FORMAT))


def _resolve_loaded(name):
    """The function a call_function target string read from JSON names, or None."""
    fn = _functions.get(name) or _loaded_functions.get(name)
    if fn is not None:
        return fn
    if name == 'builtins.getattr':
        fn = getattr
    for prefix, module_name in _LOADABLE_NAMESPACES:
        if fn is None and name.startswith(prefix):
            attr = name[len(prefix):]
            if not attr.isidentifier() or attr.startswith('_'):
                return None
            import importlib
            try:
                module = importlib.import_module(module_name)
            except ImportError:
                return None
            value = getattr(module, attr, None)
            if callable(value) and not isinstance(value, type):
                fn = value
            break
    if fn is not None:
        _loaded_functions[name] = fn
    return fn


def _check_loaded_targets(graph):
    """Refuses a graph read from JSON whose call_function targets name no function of gnn's
    namespaces or of operator, or whose call_method or getattr reaches a private attribute."""
    for node in graph.get_nodes():
        op, target = node.get_op(), node.get_target()
        if op == Gnn.GraphOp.CALL_FUNCTION:
            if _resolve_loaded(target) is None:
                raise _gnn_error("graph JSON at node '%s': unknown call_function target '%s' "
                                 "(expected a function of operator, gnn, gnn.nn.functional, "
                                 "gnn.linalg or Gnn, builtins.getattr or an operator of gnn's "
                                 "ONNX import)" % (node.get_name(), target))
            if target == 'builtins.getattr':
                args = node.args
                if len(args) != 2 or not isinstance(args[1], str) or args[1].startswith('_'):
                    raise _gnn_error("graph JSON at node '%s': expected getattr of a public "
                                     "attribute (a name without a leading '_'), found the "
                                     "arguments %r" % (node.get_name(), args[1:]))
        elif op == Gnn.GraphOp.CALL_METHOD:
            if not target.isidentifier() or target.startswith('_'):
                raise _gnn_error("graph JSON at node '%s': expected a call_method target that is "
                                 "a public method name, found '%s'" % (node.get_name(), target))


def _node_arg(v):
    if isinstance(v, Gnn.Args):
        return tuple(_node_arg(v.get_value(i)) for i in range(v.get_n_values()))
    return v


_node_class.target = property(_node_target, doc='node.target: a callable for call_function')
_node_class.users = property(lambda self: {u: None for u in self.get_users()}, doc='node.users')
_node_class.args = property(lambda self: tuple(_node_arg(self.get_args().get_value(i))
                                               for i in range(self.get_args().get_n_values())))
_node_class.kwargs = property(lambda self: {k: _node_arg(self.get_args().get_kwarg(k))
                                            for k in self.get_args().get_kwarg_names()})
_node_class.__repr__ = lambda self: self.get_name()


# ---- the graph as Python code (torch.fx's Graph.python_code, GraphModule.code) ----

_MAGIC = {'add': '{} + {}', 'sub': '{} - {}', 'mul': '{} * {}', 'floordiv': '{} // {}',
          'truediv': '{} / {}', 'mod': '{} % {}', 'pow': '{} ** {}', 'lshift': '{} << {}',
          'rshift': '{} >> {}', 'and_': '{} & {}', 'or_': '{} | {}', 'xor': '{} ^ {}',
          'getitem': '{}[{}]', 'matmul': '{} @ {}', 'eq': '{} == {}', 'ne': '{} != {}',
          'lt': '{} < {}', 'gt': '{} > {}', 'le': '{} <= {}', 'ge': '{} >= {}', 'pos': '+{}',
          'neg': '-{}', 'invert': '~{}'}


@_export
class fx_PythonCode:
    """torch.fx.graph.PythonCode: the source of the forward a graph makes (src) and the
    names it uses (globals)."""

    def __init__(self, src, globals_):
        self.src, self.globals = src, globals_

    def __repr__(self):
        return 'PythonCode(src=%r)' % self.src


def _format_target(base, target):
    out = base
    for part in target.split('.'):
        out = '%s.%s' % (out, part) if part.isidentifier() else 'getattr(%s, "%s")' % (out, part)
    return out


def _walk_nodes(value, fn):
    if isinstance(value, Gnn.GraphNode):
        fn(value)
    elif isinstance(value, (tuple, list)):
        for v in value:
            _walk_nodes(v, fn)
    elif isinstance(value, dict):
        for v in value.values():
            _walk_nodes(v, fn)


def _last_uses(nodes):
    """(user, [the nodes whose value it uses last]) for each node that is some value's last
    user, as torch.fx frees values after their last use (in its generated code and in
    Interpreter.run)."""
    seen, users = set(), {}
    for node in reversed(nodes):
        def register(n, user=node):
            if n.name not in seen:
                seen.add(n.name)
                users.setdefault(user.name, (user, []))[1].append(n)
        _walk_nodes(node.args, register)
        _walk_nodes(node.kwargs, register)
    return list(users.values())


def _python_code(graph, root_module='self', verbose=False):
    """The forward of @graph as Python source, written as torch.fx writes it: one statement
    per node, each value set to None after its last use, operators as operators, module and
    attribute targets under @root_module, functions of gnn by their public name."""
    import gnn as _gnn
    import gnn.fx._symbolic_trace  # noqa: F401  (the name a graph specialized on None calls)
    nodes = graph.nodes
    free_vars, body = [], []
    globals_ = {'gnn': _gnn, 'Gnn': Gnn, 'inf': float('inf'), 'nan': float('nan')}

    def global_name(node):
        key = node.get_target()
        fn = node.target
        if key.startswith(('gnn.', 'Gnn.')):
            return key
        mod, _, name = key.rpartition('.')
        if mod == 'builtins':
            key = name
        name = ''.join(c if c.isalnum() or c == '_' else '_' for c in key)
        if name[:1].isdigit():
            name = '_' + name
        base, n = name, 1
        while name in globals_ and globals_[name] is not fn:
            name = '%s_%d' % (base, n)
            n += 1
        globals_[name] = fn
        return name

    to_free = {user.name: dead for user, dead in _last_uses(nodes)}

    def fmt_args(args, kwargs):
        a = ', '.join(repr(x) for x in args)
        k = ', '.join('%s = %r' % (key, v) for key, v in kwargs.items())
        return '%s, %s' % (a, k) if a and k else a or k

    stack_note = [None]
    for node in nodes:
        op, name = node.op, node.name
        if verbose and op not in ('placeholder', 'output') and stack_note[0] != '':
            stack_note[0] = ''
            body.append('\n# No stacktrace found for following nodes \n')
        if op == 'placeholder':
            target = node.target
            free_vars.append(target + ('' if not node.args else ' = %r' % (node.args[0],)))
            if target.replace('*', '') != name:
                body.append('%s = %s\n' % (name, target.replace('*', '')))
            continue
        if op == 'call_method':
            body.append('%s = %s(%s)' % (name, _format_target(repr(node.args[0]), node.target),
                                         fmt_args(node.args[1:], node.kwargs)))
        elif op == 'call_function':
            fn = node.target
            fname = getattr(fn, '__name__', '')
            if getattr(fn, '__module__', '') in ('_operator', 'operator') and fname in _MAGIC:
                body.append('%s = %s' % (name, _MAGIC[fname].format(*(repr(a) for a in node.args))))
            elif (fn is getattr and len(node.args) == 2 and isinstance(node.args[1], str)
                  and node.args[1].isidentifier()):
                body.append('%s = %s' % (name, _format_target(repr(node.args[0]), node.args[1])))
            else:
                body.append('%s = %s(%s)' % (name, global_name(node), fmt_args(node.args, node.kwargs)))
        elif op == 'call_module':
            body.append('%s = %s(%s)' % (name, _format_target(root_module, node.target),
                                         fmt_args(node.args, node.kwargs)))
        elif op == 'get_attr':
            body.append('%s = %s' % (name, _format_target(root_module, node.target)))
        elif op == 'output':
            body.append('return %r' % (node.args[0],))
        if op == 'output':
            body.append('\n')
        elif to_free.get(name):
            body.append(';  %s\n' % ' = '.join([n.name for n in to_free[name]] + ['None']))
        else:
            body.append('\n')
    if not body:
        body.append('pass\n')
    if not free_vars or free_vars[0] != 'self':
        free_vars.insert(0, 'self')
    code = '\n'.join('    ' + line for line in ''.join(body).split('\n'))
    src = '\n\n\ndef forward(%s):\n%s' % (', '.join(free_vars), code)
    return fx_PythonCode(src, globals_)


def _indent(text):
    """torch.nn.modules.module._addindent (text, 4): every line but the first indented."""
    lines = text.split('\n')
    if len(lines) == 1:
        return text
    return '\n'.join([lines[0]] + ['    ' + line for line in lines[1:]])


def _print_tabular(graph):
    """Graph.print_tabular (): the nodes as a table, in the layout of the tabulate package's
    'simple' format that torch.fx prints with (torch needs that package; gnn writes the table
    itself)."""
    headers = ['opcode', 'name', 'target', 'args', 'kwargs']
    rows = [[str(x) for x in (n.op, n.name, n.target, n.args, n.kwargs)] for n in graph.nodes]
    widths = [max([len(h) + 2] + [len(r[i]) for r in rows]) for i, h in enumerate(headers)]
    lines = ['  '.join(h.ljust(w) for h, w in zip(headers, widths)),
             '  '.join('-' * w for w in widths)]
    lines += ['  '.join(c.ljust(w) for c, w in zip(r, widths)) for r in rows]
    print('\n'.join(line.rstrip() for line in lines))


fx_Graph.python_code = lambda self, root_module='self', verbose=False: \
    _python_code(self, root_module, verbose)
fx_Graph.print_tabular = _print_tabular


# ---- running a graph node by node (torch.fx.Interpreter) and shape propagation ----

_node_class.meta = property(lambda self: self.__dict__.setdefault('_meta', {}),
                            doc="node.meta: a dict for passes' results (ShapeProp's tensor_meta)")


def _format_node(node):
    """node.format_node (): the node's line of print (graph)."""
    head = '%%%s :' % node.name
    for line in str(node.get_graph()).splitlines()[1:]:
        line = line.strip()
        if line.startswith(head) or (node.op == 'output' and line.startswith('return')):
            return line
    return node.name


_node_class.format_node = _format_node


def _map_arg(value, fn):
    if isinstance(value, Gnn.GraphNode):
        return fn(value)
    if isinstance(value, tuple):
        return tuple(_map_arg(v, fn) for v in value)
    if isinstance(value, list):
        return [_map_arg(v, fn) for v in value]
    if isinstance(value, dict):
        return {k: _map_arg(v, fn) for k, v in value.items()}
    return value


@_export
class fx_Interpreter:
    """torch.fx.Interpreter: runs a GraphModule's graph node by node, through one method per
    op (placeholder, get_attr, call_function, call_method, call_module, output) that a
    subclass overrides to run the graph differently. env maps each node run to its value;
    with garbage_collect_values a value is dropped after its last use."""

    def __init__(self, module, garbage_collect_values=True):
        self.module = module
        self.submodules = dict(module.named_modules())
        self.env = {}
        self.garbage_collect_values = garbage_collect_values
        self.user_to_last_uses = dict(_last_uses(module.graph.nodes))

    def run(self, *args, initial_env=None, enable_io_processing=True):
        """Runs the graph on args (the placeholders' values, in order) and returns the output
        node's value; nodes in initial_env are not run."""
        self.env = initial_env if initial_env is not None else {}
        self.args_iter = iter(args)
        for node in self.module.graph.nodes:
            if node in self.env:
                continue
            try:
                self.env[node] = self.run_node(node)
            except Exception as e:
                msg = 'While executing %s' % node.format_node()
                msg = '%s\n\n%s' % (e.args[0], msg) if e.args else msg
                e.args = (msg,) + e.args[1:]
                if isinstance(e, KeyError):
                    raise RuntimeError(*e.args) from e
                raise
            if self.garbage_collect_values:
                for dead in self.user_to_last_uses.get(node, []):
                    self.env.pop(dead, None)
            if node.op == 'output':
                return self.env[node]
        return None

    def run_node(self, n):
        args, kwargs = self.fetch_args_kwargs_from_env(n)
        return getattr(self, n.op)(n.target, args, kwargs)

    def placeholder(self, target, args, kwargs):
        if target.startswith('*'):
            return list(self.args_iter)
        try:
            return next(self.args_iter)
        except StopIteration:
            if args:
                return args[0]
            raise RuntimeError('Expected positional argument for parameter %s, but one was '
                               'not passed in!' % target) from None

    def get_attr(self, target, args, kwargs):
        return self.fetch_attr(target)

    def call_function(self, target, args, kwargs):
        return target(*args, **kwargs)

    def call_method(self, target, args, kwargs):
        self_obj, *rest = args
        return getattr(self_obj, target)(*rest, **kwargs)

    def call_module(self, target, args, kwargs):
        return self.fetch_attr(target)(*args, **kwargs)

    def output(self, target, args, kwargs):
        return args[0]

    def fetch_attr(self, target):
        """The submodule, parameter or buffer at the dotted path target of the module."""
        owner = self.module
        *path, field = target.split('.')
        for i, part in enumerate(path):
            try:
                owner = owner.get_submodule(part)
            except Exception:
                raise RuntimeError('Node referenced nonexistent target %s'
                                   % '.'.join(path[:i + 1])) from None
        try:
            return owner.get_submodule(field)
        except Exception:
            pass
        try:
            return owner.get_tensor(field)
        except Exception:
            raise RuntimeError('Node referenced nonexistent target %s' % target) from None

    def fetch_args_kwargs_from_env(self, n):
        return self.map_nodes_to_values(n.args, n), self.map_nodes_to_values(n.kwargs, n)

    def map_nodes_to_values(self, args, n):
        def load(a):
            if a not in self.env:
                raise RuntimeError('Node %s referenced nonexistent value %s! Run Graph.lint() '
                                   'to diagnose such issues' % (n, a))
            return self.env[a]
        return _map_arg(args, load)


class fx_TensorMetadata(_collections.namedtuple(
        'TensorMetadata', ['shape', 'dtype', 'requires_grad', 'stride', 'memory_format',
                           'is_quantized', 'qparams'])):
    """torch.fx.passes.shape_prop.TensorMetadata: what ShapeProp records of a tensor.
    memory_format is None: gnn's tensors have no memory_format (torch's names
    torch.contiguous_format for a contiguous one)."""
    __slots__ = ()


__all__.append('fx_TensorMetadata')


def _tensor_metadata(t):
    return fx_TensorMetadata(t.shape, t.dtype, t.requires_grad, tuple(t.get_strides()), None,
                             False, {})


def _record_meta(n, result):
    """What ShapeProp records of node @n whose value is @result: meta['tensor_meta'] (the
    structure of result, each tensor's TensorMetadata; not set when it holds no tensor),
    meta['type'], and for a tensor the node's C tensor meta."""
    found = []

    def extract(obj):
        if isinstance(obj, Gnn.Tensor):
            found.append(True)
            return _tensor_metadata(obj)
        if isinstance(obj, tuple) and not hasattr(obj, '_fields'):
            return tuple(extract(x) for x in obj)
        if isinstance(obj, list):
            return [extract(x) for x in obj]
        if isinstance(obj, dict):
            return {k: extract(v) for k, v in obj.items()}
        return obj

    meta = extract(result)
    if found:
        n.meta['tensor_meta'] = meta
    if isinstance(result, Gnn.Tensor):   # for C's exporters: gnn_onnx_export
        n.set_tensor_meta(list(result.get_shape()), Gnn.Tensor.get_dtype(result))
    n.meta['type'] = type(result)


@_export
class fx_ShapeProp(fx_Interpreter):
    """torch.fx.passes.shape_prop.ShapeProp: propagate (*args) runs the graph and records in
    each node's meta the shape, dtype, strides and requires_grad of its value
    (meta['tensor_meta'], the same structure as the value where it holds several tensors)
    and the value's type (meta['type'])."""

    def run_node(self, n):
        result = super().run_node(n)
        _record_meta(n, result)
        return result

    def propagate(self, *args):
        return super().run(*args)


class _GraphAppender(fx_Tracer):
    """The tracer a Transformer records into: every module called is a leaf."""

    def __init__(self, graph, root):
        self.graph, self.root, self._public = graph, root, {}

    def is_leaf_module(self, m, module_qualified_name):
        return True


@_export
class fx_Transformer(fx_Interpreter):
    """torch.fx.Transformer: runs a graph module's graph with Proxies, so that what each op
    method returns is recorded into a new graph; transform () returns a GraphModule of it over
    the same module. A subclass changes what the methods record (torch's DropoutRemover)."""

    def __init__(self, module):
        super().__init__(module)
        self.new_graph = _graph_new()
        self.tracer = _GraphAppender(self.new_graph, module)

    def placeholder(self, target, args, kwargs):
        return self.tracer.create_proxy('placeholder', target, tuple(args), {})

    def get_attr(self, target, args, kwargs):
        return self.tracer.create_proxy('get_attr', target, (), {})

    def call_module(self, target, args, kwargs):
        return self.tracer.create_proxy('call_module', target, args, kwargs)

    def call_function(self, target, args, kwargs):
        return self.tracer.create_proxy('call_function', target, args, kwargs)

    def call_method(self, target, args, kwargs):
        return self.tracer.create_proxy('call_method', target, args, kwargs)

    def run_node(self, n):
        if n.op == 'placeholder':   # torch's Transformer does not read inputs
            return self.placeholder(n.target, n.args, n.kwargs)
        return super().run_node(n)

    def transform(self):
        result = self.run()
        self.new_graph.output(_pack((result,), {}))
        return fx_GraphModule(self.module, self.new_graph)


def _parent_and_field(gm, target):
    *parent, field = target.split('.')
    return _own_path(gm, parent), field


@_export
def fx_optimization_fuse(model, inplace=False):
    """torch.fx.experimental.optimization.fuse: a GraphModule of model (deep-copied unless
    inplace) where each Conv1d/Conv2d whose only user is a BatchNorm1d/BatchNorm2d with running
    statistics calls one fused convolution (fuse_conv_bn_eval), for inference."""
    import copy
    if not inplace:
        model = copy.deepcopy(model)
    gm = fx_symbolic_trace(model)
    patterns = ((Gnn.Conv1d, Gnn.BatchNorm1d), (Gnn.Conv2d, Gnn.BatchNorm2d))
    graph = gm.graph
    for conv_type, bn_type in patterns:
        for node in graph.nodes:
            if node.op != 'call_module' or not node.args:
                continue
            prev = node.args[0]
            if not isinstance(prev, Gnn.GraphNode) or prev.op != 'call_module':
                continue
            conv, bn = gm.get_submodule(prev.target), gm.get_submodule(node.target)
            # the exact types, as torch's type (m) is pattern[i] (a subclass does not match)
            if type(conv).__gtype__ != conv_type.__gtype__ or type(bn).__gtype__ != bn_type.__gtype__:
                continue
            if prev.get_n_users() > 1 or not bn.get_property('track-running-stats'):
                continue
            owner, field = _parent_and_field(gm, prev.target)
            owner.remove(field)
            owner.register_module(field, fuse_conv_bn_eval(conv, bn))
            node.replace_all_uses_with(prev)
            graph.erase_node(node)
    # a new graph module of the changed graph holds only what it calls, as torch's does
    return fx_GraphModule(gm, graph, gm.__dict__.get('_class_name', type(gm).__name__))


@_export
def fx_optimization_remove_dropout(model):
    """torch.fx.experimental.optimization.remove_dropout: a GraphModule of model without its
    Dropout layers (each call replaced by its input)."""
    gm = fx_symbolic_trace(model)

    class DropoutRemover(fx_Transformer):
        def call_module(self, target, args, kwargs):
            if isinstance(self.submodules[target], (Gnn.Dropout, Gnn.Dropout1d, Gnn.Dropout2d)
                          if hasattr(Gnn, 'Dropout1d') else Gnn.Dropout):
                assert len(args) == 1
                return args[0]
            return super().call_module(target, args, kwargs)
    return DropoutRemover(gm).transform()


@_export
def fx_replace_modules(gm, module_type, make):
    """Every call of a module of module_type in the graph module gm calls make (module)
    instead (gnn's own: torch's FX tutorial writes this pass by hand): the new module takes
    the old one's path, the graph is unchanged, gm is recompiled and returned. The modules gm
    shares with the traced root are not changed."""
    done = {}
    for node in gm.graph.nodes:
        if node.op != 'call_module':
            continue
        old = gm.get_submodule(node.target)
        if not isinstance(old, module_type) or node.target in done:
            continue
        new = make(old)
        if not isinstance(new, Gnn.Module):
            raise TypeError('replace_modules: make (%s) returned a %s, not a module'
                            % (node.target, type(new).__name__))
        owner, field = _parent_and_field(gm, node.target)
        owner.remove(field)
        owner.register_module(field, new)
        done[node.target] = new
    gm.recompile()
    return gm


class _Holder(_module.Module):
    """The empty module GraphModule puts on the path to a submodule or tensor it owns, as
    torch's GraphModule puts a torch.nn.Module there."""

    __gtype_name__ = 'GnnFxHolder'
    __module__ = 'gnn.fx'   # a class of a gi.overrides module gets no GType of its own: its
                            # do_forward would become Gnn.Module's, every C module's
    do_forward = _module._forward_vfunc

    def forward(self, *args):
        raise NotImplementedError('a GraphModule path holder is not called')


def _copy_attr(root, gm, target):
    *prefix, field = target.split('.')
    src, dst = root, gm
    for part in prefix:
        src = src.get_submodule(part)
        try:
            dst = dst.get_submodule(part)
        except Exception:
            holder = _Holder()
            dst.register_module(part, holder)
            dst = holder
    try:
        value = src.get_submodule(field)
        dst.register_module(field, value)
        return
    except Exception:
        pass
    value = src.get_tensor(field)
    if isinstance(value, Gnn.Parameter):
        dst.register_parameter(field, value)
    else:
        dst.register_buffer(field, value, True)


@_export
class fx_GraphModule(_module.Module):
    """torch.fx.GraphModule: a module that runs a graph. It holds the submodules and tensors
    the graph's call_module and get_attr nodes name, at the same paths as in root (the same
    objects, so the same state_dict keys), and runs the graph as it was at the last
    recompile ()."""

    __gtype_name__ = 'GnnFxGraphModule'
    __module__ = 'gnn.fx'   # its own GType, as _Holder's
    do_forward = _module._forward_vfunc

    def __init__(self, root, graph, class_name='GraphModule'):
        super().__init__()
        self.__dict__['_graph'] = graph
        self.__dict__['_class_name'] = class_name
        for node in graph.nodes:
            if node.op in ('call_module', 'get_attr'):
                target = node.target
                try:
                    self.get_submodule(target)
                    continue
                except Exception:
                    pass
                try:
                    _copy_attr(root, self, target)
                except Exception:
                    raise AttributeError("node %s: root has no submodule, parameter or buffer '%s'"
                                         % (node.name, target)) from None
        self.recompile()

    # The module JSON tree (Gnn.Module.to_json, a checkpoint's model) holds a graph module's
    # graph as its graph JSON text and its class name, as two properties: the loader sets them
    # on the module C makes by type name, and the graph runs once its children are there
    # (doc/design/fx.md, "A graph module in the module tree")
    def _get_graph_json(self):
        graph = self.__dict__.get('_graph')
        if graph is None:
            return None
        try:
            return graph.to_json(False)
        except Exception:     # a graph its JSON cannot hold: null, which the loader refuses
            return None

    def _set_graph_json(self, text):
        d = self.__dict__
        for key in ('_plan', '_code', '_gnn_load_error'):
            d.pop(key, None)
        try:
            if text is None:
                raise _gnn_error('the graph module has no graph (expected '
                                 '"graph-json" to be the text of graph.to_json (), found null)')
            graph = Gnn.Graph.new_from_json(text, -1)
            _check_loaded_targets(graph)
            d['_graph'] = graph
        except Exception as e:
            d.pop('_graph', None)
            d['_gnn_load_error'] = e

    graph_json = GObject.Property(type=str, default=None, getter=_get_graph_json, setter=_set_graph_json,
                                  nick='graph JSON',
                                  blurb='the graph as Gnn.Graph.to_json writes it (the module JSON keeps it)')
    class_name = GObject.Property(type=str, default=None,
                                  getter=lambda self: self.__dict__.get('_class_name', type(self).__name__),
                                  setter=lambda self, v: self.__dict__.__setitem__('_class_name', v),
                                  nick='class name', blurb="the class name print (gm) shows (torch's)")

    def _ensure_plan(self):
        """Raises what reading the graph JSON found; recompiles a graph set by the loader."""
        error = self.__dict__.get('_gnn_load_error')
        if error is not None:
            raise error
        if '_plan' not in self.__dict__:
            self.recompile()

    @property
    def graph(self):
        error = self.__dict__.get('_gnn_load_error')
        if error is not None:
            raise error
        return self.__dict__['_graph']

    @graph.setter
    def graph(self, g):
        self.__dict__.pop('_gnn_load_error', None)
        self.__dict__['_graph'] = g
        self.recompile()

    def recompile(self):
        """Checks the graph (lint, every target known) and makes forward run it as it is now."""
        self.graph.lint()
        plan = []
        for node in self.graph.nodes:
            op, target = node.op, node.target
            if op == 'call_module':
                try:
                    fn = self.get_submodule(target)
                except Exception:
                    raise AttributeError("node %s: unknown call_module target '%s'"
                                         % (node.name, target)) from None
            elif op == 'get_attr':
                try:
                    fn = self.get_tensor(target)
                except Exception:
                    raise AttributeError("node %s: unknown get_attr target '%s'"
                                         % (node.name, target)) from None
            elif op == 'call_function':
                if not callable(target):
                    raise AttributeError("node %s: unknown call_function target '%s'"
                                         % (node.name, target))
                fn = target
            else:
                fn = target
            plan.append((node, op, fn, node.args, node.kwargs))
        self.__dict__['_plan'] = plan
        self.__dict__['_code'] = self.graph.python_code('self').src
        return fx_PythonCode(self.__dict__['_code'], {})

    @property
    def code(self):
        """The Python source of forward, as torch.fx's GraphModule.code writes it."""
        self._ensure_plan()
        return self.__dict__['_code']

    def print_readable(self, print_output=True):
        """torch's GraphModule.print_readable: the module as a class around its forward's code,
        with the same for each child GraphModule."""
        src = self.graph.python_code('self', verbose=True).src.lstrip('\n')
        text = 'class %s(torch.nn.Module):\n%s' % (self.__dict__.get('_class_name', type(self).__name__), src)
        parts = [''] + [m.print_readable(False) for m in self.children()
                        if isinstance(m, fx_GraphModule)]
        text = _indent(text) + _indent('\n'.join(parts))
        if print_output:
            print(text)
        return text

    def __repr__(self):
        text = self.to_string()
        own = self.get_name()
        if text.startswith(own):
            text = self.__dict__.get('_class_name', type(self).__name__) + text[len(own):]
        return text

    def __str__(self):
        return '\n'.join([repr(self), self.code,
                          '# To see more debug info, please use `graph_module.print_readable()`'])

    def forward(self, *inputs, **named):
        env = {}

        def load(a):
            if isinstance(a, Gnn.GraphNode):
                return env[a.get_name()]
            if isinstance(a, tuple):
                return tuple(load(x) for x in a)
            return a

        inputs = list(inputs)
        self._ensure_plan()
        for node, op, fn, args, kwargs in self.__dict__['_plan']:
            args = load(args)
            kwargs = {k: load(v) for k, v in kwargs.items()}
            if op == 'placeholder':
                if fn in named:
                    value = named.pop(fn)
                elif inputs:
                    value = inputs.pop(0)
                elif args:
                    value = args[0]
                else:
                    raise TypeError('forward() missing the input %s' % fn)
            elif op == 'get_attr':
                value = fn
            elif op == 'call_module' or op == 'call_function':
                value = fn(*args, **kwargs)
            elif op == 'call_method':
                value = getattr(args[0], fn)(*args[1:], **kwargs)
            else:
                return args[0]
            env[node.get_name()] = value
        return None


@_export
def fx_symbolic_trace(root, concrete_args=None):
    """torch.fx.symbolic_trace: a GraphModule that runs root's forward as a graph; its class is
    a subclass of GraphModule named as root's class, as torch names it."""
    name = type(root).__name__
    return _graph_module_class(name)(root, fx_Tracer().trace(root, concrete_args), name)


_GRAPH_MODULE_CLASSES = {}


def _graph_module_class(name):
    """The subclass of GraphModule named @name (one per name: torch makes one per graph
    module, but a GType lives as long as the program)."""
    cls = _GRAPH_MODULE_CLASSES.get(name)
    if cls is None:
        safe = ''.join(c if c.isalnum() or c == '_' else '_' for c in name) or '_'
        # gnn_module_get_name prints the part after the last '+': the class name
        cls = type(name, (fx_GraphModule,), {'__gtype_name__': 'GnnFxGraphModule+' + safe,
                                              '__module__': 'gnn.fx',
                                              '__qualname__': name,
                                              'do_forward': _module._forward_vfunc})
        _GRAPH_MODULE_CLASSES[name] = cls
    return cls


# ---- graph modules in the module JSON tree ------------------------------------------------
#
# A graph module's type is GnnFxGraphModule or a subclass GnnFxGraphModule+<Class> that
# symbolic_trace and trace make on demand; the loaders below make those named in the text
# before C looks them up, and after C has built the tree check each graph module's graph
# against its children and tensors, so that a refusal is a GLib.Error of the call.

import re as _re

_GRAPH_MODULE_TYPE = _re.compile(r'"type"\s*:\s*"GnnFxGraphModule\+([A-Za-z0-9_]{1,200})"')


_MAX_NEW_GRAPH_MODULE_TYPES = 1000


def _make_graph_module_types(text):
    if not isinstance(text, str):
        return
    names = set(_GRAPH_MODULE_TYPE.findall(text)) - set(_GRAPH_MODULE_CLASSES)
    if len(names) > _MAX_NEW_GRAPH_MODULE_TYPES:
        raise _gnn_error('module JSON: the text names %d graph module classes not made yet '
                         '(expected at most %d)' % (len(names), _MAX_NEW_GRAPH_MODULE_TYPES))
    for name in sorted(names):
        if name not in _GRAPH_MODULE_CLASSES:
            try:
                GObject.type_from_name('GnnFxGraphModule+' + name)
                continue        # a type of that name exists already
            except RuntimeError:
                pass
            _graph_module_class(name)


def _finish_loaded(model):
    """Checks every graph module of a tree C rebuilt: its graph read, its targets there."""
    for path, m in model.named_modules():
        if isinstance(m, fx_GraphModule):
            where = "module JSON: the graph module '%s' (%s)" % (path, type(m).__name__) if path else \
                "module JSON: the graph module (%s)" % type(m).__name__
            try:
                m._ensure_plan()
            except AttributeError as e:
                raise _gnn_error('%s: %s' % (where, e)) from None
            except Exception as e:
                message = getattr(e, 'message', None) or str(e)
                raise _gnn_error('%s: %s' % (where, message)) from None
    return model


_c_module_new_from_json = Gnn.Module.new_from_json
_c_checkpoint_load_model = Gnn.Checkpoint.load_model


def _module_new_from_json(json, length=-1):
    """Gnn.Module.new_from_json (json, length): as C's, with graph modules rebuilt and checked."""
    if isinstance(json, (bytes, bytearray)):
        _make_graph_module_types(bytes(json).decode('utf-8', 'replace'))
    else:
        _make_graph_module_types(json)
    return _finish_loaded(_c_module_new_from_json(json, length))


def _checkpoint_load_model(path):
    """Gnn.Checkpoint.load_model (path): as C's, with graph modules rebuilt and checked."""
    try:
        _make_graph_module_types(Gnn.Checkpoint.peek_model_json(path))
    except Exception:
        pass         # C's call reports what is wrong with the file
    return _finish_loaded(_c_checkpoint_load_model(path))


_c_module_to_json = Gnn.Module.to_json


def _module_to_json(self, pretty):
    """Gnn.Module.to_json (pretty): as C's, but a graph module whose graph JSON cannot hold
    (a tensor among a node's arguments) is an error naming the node, not a null graph."""
    for m in self.modules():
        if isinstance(m, fx_GraphModule):
            m.graph.to_json(False)
    return _c_module_to_json(self, pretty)


_c_checkpoint_save = Gnn.Checkpoint.save


def _checkpoint_save(self, path):
    """Gnn.Checkpoint.save (path): as C's, with the model's graph modules checked as to_json
    checks them."""
    model = self.props.model
    for m in model.modules() if model is not None else ():
        if isinstance(m, fx_GraphModule):
            m.graph.to_json(False)
    return _c_checkpoint_save(self, path)


_module.Module.new_from_json = staticmethod(_module_new_from_json)
_data.Checkpoint.save = _checkpoint_save
_module.Module.to_json = _module_to_json
_data.Checkpoint.load_model = staticmethod(_checkpoint_load_model)


# ---- torch.nn.utils.fusion, and the fx pass that uses it ----------------------------------

def _np(t):
    return t.numpy().astype('float64')


def _param(array, like):
    """A Parameter holding @array in the dtype of @like (the folding runs in float64, as the
    sums of a few products it is; torch folds in the parameters' dtype, within 1e-6)."""
    import numpy as np
    import gnn
    return gnn.nn.Parameter(gnn.tensor(np.ascontiguousarray(array, dtype=like.numpy().dtype)))


def _fused_weights(w, b, bn, shape):
    import numpy as np
    mean, var = _np(bn.running_mean), _np(bn.running_var)
    gamma = _np(bn.weight) if bn.weight is not None else np.ones_like(mean)
    beta = _np(bn.bias) if bn.bias is not None else np.zeros_like(mean)
    scale = gamma / np.sqrt(var + bn.get_property('eps'))
    b = _np(b) if b is not None else np.zeros_like(mean)
    return _np(w) * scale.reshape(shape), (b - mean) * scale + beta


@_export
def fuse_conv_bn_eval(conv, bn, transpose=False):
    """torch.nn.utils.fusion.fuse_conv_bn_eval: a copy of conv whose weight and bias fold in
    the eval-mode batch norm bn (running statistics, affine parameters, eps)."""
    if conv.training or bn.training:
        raise AssertionError('Fusion only for eval!')
    fused = conv.copy()
    out = conv.weight.shape[1 if transpose else 0]
    shape = [1, -1] + [1] * (len(conv.weight.shape) - 2) if transpose else \
        [-1] + [1] * (len(conv.weight.shape) - 1)
    w, b = _fused_weights(conv.weight, conv.bias, bn, shape)
    assert b.shape[0] == out
    fused.weight = _param(w, conv.weight)
    fused.bias = _param(b, conv.weight)
    return fused


@_export
def fuse_linear_bn_eval(linear, bn):
    """torch.nn.utils.fusion.fuse_linear_bn_eval: a copy of linear folding in the eval-mode
    batch norm bn that follows it."""
    if linear.training or bn.training:
        raise AssertionError('Fusion only for eval!')
    fused = linear.copy()
    w, b = _fused_weights(linear.weight, linear.bias, bn, [-1, 1])
    fused.weight = _param(w, linear.weight)
    fused.bias = _param(b, linear.weight)
    return fused


def _own_path(gm, parts):
    """The module at @parts under gm, made gm's own: every module on the way that gm shares
    with the traced root becomes a holder with the same children and tensors, so that a pass
    changes gm and never root."""
    owner = gm
    for part in parts:
        child = owner.get_submodule(part)
        if not isinstance(child, _Holder):
            holder = _Holder()
            for name, sub in child.named_children():
                holder.register_module(name, sub)
            for name, p in child.named_parameters(recurse=False):
                holder.register_parameter(name, p)
            for name, b in child.named_buffers(recurse=False):
                holder.register_buffer(name, b, True)
            owner.remove(part)
            owner.register_module(part, holder)
            child = holder
        owner = child
    return owner


@_export
def fx_fuse_conv_bn(gm):
    """The fx pass of torch's FX tutorial: each call_module of a Conv2d whose only user is a
    call_module of a BatchNorm2d (both in eval mode) becomes one call of the fused Conv2d;
    gm is changed in place (the modules it shares with the traced root are not: the path
    to a fused module becomes gm's own), recompiled and returned."""
    graph = gm.graph
    for node in graph.nodes:
        if node.op != 'call_module' or not isinstance(gm.get_submodule(node.target), Gnn.BatchNorm2d):
            continue
        prev = node.args[0] if node.args else None
        if not isinstance(prev, Gnn.GraphNode) or prev.op != 'call_module' or prev.get_n_users() != 1:
            continue
        conv = gm.get_submodule(prev.target)
        if not isinstance(conv, Gnn.Conv2d):
            continue
        bn = gm.get_submodule(node.target)
        if conv.training or bn.training:
            continue
        fused = fuse_conv_bn_eval(conv, bn)
        *parent, field = prev.target.split('.')
        owner = _own_path(gm, parent)
        owner.remove(field)
        owner.register_module(field, fused)
        node.replace_all_uses_with(prev)
        graph.erase_node(node)
    graph.eliminate_dead_code()
    gm.recompile()
    return gm


class _Namespace:
    def __init__(self, **names):
        self.__dict__.update(names)

    def __repr__(self):
        return '<Gnn.fx: %s>' % ', '.join(sorted(self.__dict__))


fx = _Namespace(symbolic_trace=fx_symbolic_trace, Tracer=fx_Tracer, Proxy=fx_Proxy,
                Graph=Gnn.Graph, GraphModule=fx_GraphModule, fuse_conv_bn=fx_fuse_conv_bn, TraceError=fx_TraceError, Node=Gnn.GraphNode,
                Interpreter=fx_Interpreter, ShapeProp=fx_ShapeProp, PH=fx_PH,
                Transformer=fx_Transformer, replace_modules=fx_replace_modules)
__all__.append('fx')


# torch's class names (type(gm).__name__ is 'GraphModule', as print (gm) and tracebacks show);
# the fx_ prefix only places them in Gnn.fx
for _cls in (fx_TraceError, fx_Proxy, fx_Tracer, fx_GraphModule, fx_Interpreter, fx_ShapeProp, fx_TensorMetadata,
             fx_Transformer,
             fx_PythonCode):
    _cls.__name__ = _cls.__qualname__ = _cls.__name__[len('fx_'):]
del _cls
