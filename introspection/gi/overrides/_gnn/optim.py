# optimizers (torch.optim)
#
# SPDX-License-Identifier: LGPL-2.1-or-later
from .base import Gnn, _call_raising_python_errors, _wrap_vfunc, enable_grad, override
from .containers import _Mapping
from .state_dict import StateDict

__all__ = []


def _option_variant(value):
    """A parameter-group option as the GLib.Variant the C side keeps: bool 'b', a number 'd',
    a pair of numbers '(dd)' (Adam's betas), a string 's'; a GLib.Variant as it is."""
    from gi.repository import GLib
    import numbers
    if isinstance(value, GLib.Variant):
        return value
    if isinstance(value, bool):
        return GLib.Variant('b', value)
    if isinstance(value, numbers.Real):
        return GLib.Variant('d', float(value))
    if isinstance(value, (tuple, list)) and len(value) == 2 and all(
            isinstance(v, numbers.Real) and not isinstance(v, bool) for v in value):
        return GLib.Variant('(dd)', (float(value[0]), float(value[1])))
    if isinstance(value, str):
        return GLib.Variant('s', value)
    raise TypeError('cannot store %r as an option of a parameter group (expected a bool, a number, '
                    'a pair of numbers or a string)' % (value,))


class ParamGroup(_Mapping, Gnn.ParamGroup):
    """One entry of ``optimizer.param_groups``: a mapping of ``"params"`` (the list of
    tensors) and the options, as PyTorch's dicts: ``group["lr"]``, ``group["lr"] = 0.01``,
    ``"momentum" in group``, keys() with ``"params"`` first. Numbers come back as float,
    flags as bool, Adam's betas as a tuple. The parameters of a group are fixed."""

    def _keys(self):
        return ['params'] + list(self.list_options() or [])

    def _get(self, key):
        if key == 'params':
            return list(self.get_params())
        return self.get_option(key).unpack()

    def _set(self, key, value):
        if not isinstance(key, str):
            raise TypeError('parameter group options are named by strings, not %s' % type(key).__name__)
        if key == 'params':
            raise TypeError('the parameters of a Gnn.ParamGroup cannot be replaced; make a new group')
        self.set_option(key, _option_variant(value))

    def _contains(self, key):
        return key == 'params' or self.has_option(key)

    def _pop(self, key):
        raise TypeError('options cannot be removed from a parameter group')

    def get(self, key, default=None):
        return self[key] if key in self else default

    def setdefault(self, key, default=None):
        if key not in self:
            self[key] = default
        return self[key]

    def __repr__(self):
        return '{%s}' % ', '.join('%r: %r' % kv for kv in self.items())

    __str__ = __repr__


ParamGroup = override(ParamGroup)
__all__.append('ParamGroup')


def _make_param_group(spec):
    """A Gnn.ParamGroup from a Gnn.ParamGroup (as it is), or a dict holding ``"params"`` (a
    tensor or an iterable of tensors) and options, as PyTorch's add_param_group takes."""
    if isinstance(spec, Gnn.ParamGroup):
        return spec
    if not isinstance(spec, dict):
        raise TypeError('a parameter group is a dict with "params", not %s' % type(spec).__name__)
    if 'params' not in spec:
        raise ValueError('a parameter group needs "params"')
    params = spec['params']
    if isinstance(params, Gnn.Tensor):
        params = [params]
    elif isinstance(params, set):
        raise TypeError('optimizer parameters need to be organized in ordered collections, but the '
                        'ordering of tensors in sets will change between runs. Please use a list instead.')
    else:
        params = list(params)
    for p in params:
        if not isinstance(p, Gnn.Tensor):
            raise TypeError("optimizer can only optimize Tensors, but one of the params is "
                            + type(p).__name__)
    group = Gnn.ParamGroup.new(params)
    for key, value in spec.items():
        if key != 'params':
            group.set_option(key, _option_variant(value))
    return group


def _param_groups(params):
    """PyTorch's params argument (an iterable of tensors, or of dicts, or a module's
    parameters()) as a list of Gnn.ParamGroup; a single group without options for tensors."""
    if isinstance(params, Gnn.Tensor):
        raise TypeError('params argument given to the optimizer should be an iterable of Tensors '
                        'or dicts, but got ' + type(params).__name__)
    if isinstance(params, Gnn.ParamGroup):
        return [params]
    if isinstance(params, Gnn.Module):
        params = params.parameters(True)
    params = list(params)
    if not params or not isinstance(params[0], dict):
        return [_make_param_group({'params': params})]
    return [_make_param_group(spec) for spec in params]


class _OptimizerState:
    """``optimizer.state``: parameter -> its state (a Gnn.StateDict)."""

    def __init__(self, optimizer):
        self._optimizer = optimizer

    def __getitem__(self, param):
        return self._optimizer.get_state(param)

    def __contains__(self, param):
        return isinstance(param, Gnn.Tensor) and self._optimizer.has_state(param)

    def __iter__(self):
        return iter([p for g in self._optimizer.get_param_groups() for p in g.get_params()
                     if self._optimizer.has_state(p)])

    def __len__(self):
        return len(list(iter(self)))

    def items(self):
        return [(p, self[p]) for p in self]


def _wrap_bool_vfunc(fn):
    """_wrap_vfunc for a do_* method returning gboolean: a Python implementation that
    returns None succeeds."""
    import functools

    @functools.wraps(fn)
    def returning_true(self, *args):
        result = fn(self, *args)
        return True if result is None else result
    return _wrap_vfunc(returning_true)


def _is_nested_state(state_dict):
    """Whether state_dict is PyTorch's optimizer state, {'state': {...}, 'param_groups': [...]}."""
    return (isinstance(state_dict, dict) and set(state_dict) == {'state', 'param_groups'}
            and isinstance(state_dict['param_groups'], (list, tuple)))


class Optimizer(Gnn.Optimizer):
    """``torch.optim.Optimizer``: param_groups, step(closure=None), zero_grad(set_to_none=True),
    state_dict()/load_state_dict(), add_param_group(dict). Python subclasses call
    ``super().__init__(params, defaults)`` and implement ``do_step(self)`` (and optionally
    ``do_check_group(self, group)``); an exception they raise reaches the caller of step()."""

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        for name in ('do_step', 'do_check_group'):
            fn = cls.__dict__.get(name)
            if fn is not None and not getattr(fn, '_gnn_wrapped', False):
                setattr(cls, name, _wrap_bool_vfunc(fn))

    def __init__(self, params=None, defaults=None, **kwargs):
        Gnn.Optimizer.__init__(self, **kwargs)
        for key, value in (defaults or {}).items():
            self.set_default(key, _option_variant(value))
        if params is not None:
            groups = _param_groups(params)
            if not groups[0].get_n_params():
                raise ValueError('optimizer got an empty parameter list')
            for group in groups:
                self.add_param_group(group)

    @property
    def param_groups(self):
        return list(self.get_param_groups())

    @property
    def state(self):
        return _OptimizerState(self)

    def add_param_group(self, param_group):
        """Adds a group: a dict with "params" and options, or a Gnn.ParamGroup; options it
        lacks come from the defaults. A GLib.Error (PyTorch's message) when it is invalid."""
        _call_raising_python_errors(Gnn.Optimizer.add_param_group, self, _make_param_group(param_group))

    def step(self, closure=None):
        """One optimization step; closure, when given, is called first with gradients enabled
        and its result (the loss) returned."""
        loss = None
        if closure is not None:
            with enable_grad():
                loss = closure()
        _call_raising_python_errors(Gnn.Optimizer.step, self)
        return loss

    def zero_grad(self, set_to_none=True):
        """Drops the gradients (set_to_none=True, PyTorch 2's default) or zeroes them."""
        Gnn.Optimizer.zero_grad(self, set_to_none)

    def state_dict(self):
        """The state as a Gnn.StateDict: PyTorch's state_dict flattened, state.<n>.<name> and
        param_groups.<g>.<option>; it knows the optimizer's type name, which gnn.save writes
        into a checkpoint as Gnn.Checkpoint does."""
        from gi.repository import GObject
        state = Gnn.Optimizer.state_dict(self)
        state._gnn_type = GObject.type_name(type(self).__gtype__)
        return state

    def load_state_dict(self, state_dict):
        """Loads a state from state_dict() (a Gnn.StateDict, or any mapping of the same keys),
        or from PyTorch's nested form ``{'state': {0: {...}}, 'param_groups': [{...}]}``, as
        a torch optimizer's state_dict() gives it: its options that this optimizer's groups
        do not have (foreach, capturable, ...) are left out, and a tensor ``step`` becomes
        the number gnn keeps."""
        if _is_nested_state(state_dict):
            state_dict = self._flatten_state(state_dict)
        if not isinstance(state_dict, Gnn.StateDict):
            state_dict = StateDict(state_dict)
        Gnn.Optimizer.load_state_dict(self, state_dict)

    def _flatten_state(self, nested):
        from gi.repository import GLib
        flat = StateDict()
        for index, entries in nested['state'].items():
            for key, value in entries.items():
                if key == 'step' and hasattr(value, 'item'):
                    value = float(value.item())
                flat['state.%d.%s' % (int(index), key)] = value
        groups = self.get_param_groups()
        for g, group in enumerate(nested['param_groups']):
            known = group.keys() if g >= len(groups) else groups[g].list_options()
            for key in (k for k in group if k != 'params' and k in known):
                flat['param_groups.%d.%s' % (g, key)] = _option_variant(group[key])
            flat['param_groups.%d.params' % g] = GLib.Variant('ax', [int(i) for i in group['params']])
        return flat

    def __repr__(self):
        lines = [type(self).__name__ + ' (']
        for i, group in enumerate(self.get_param_groups()):
            lines.append('Parameter Group %d' % i)
            for key in sorted(k for k in group.keys() if k != 'params'):
                lines.append('    %s: %s' % (key, group[key]))
        lines.append(')')
        return '\n'.join(lines)

    __str__ = __repr__


Optimizer = override(Optimizer)
__all__.append('Optimizer')


class _Required:
    """The default of a required lr, printed as torch.optim.optimizer.required is."""

    def __repr__(self):
        return '<required parameter>'


_REQUIRED = _Required()


def _refuse_unsupported(optimizer, **flags):
    """A ValueError naming the first torch flag given a value gnn cannot honour. foreach is
    accepted with any value (gnn's step is one loop over the tensors whichever is asked, with
    the same results); capturable (CUDA graph capture), differentiable (autograd through the
    step) and fused only when false."""
    why = {'capturable': 'gnn does not capture CUDA graphs, so a capturable state means nothing '
                         'to it',
           'differentiable': 'gnn does not record the step for autograd',
           'fused': 'gnn has no fused optimizer kernels'}
    for name, value in flags.items():
        if value:
            raise ValueError('%s: %s=%r is not supported (%s); leave it at its default'
                             % (optimizer, name, value, why[name]))


def _new_optimizer(new, params, options, positional):
    """Creates an optimizer with its C constructor new(first group, *positional) and adds the
    other groups; options names the keyword arguments (for a required lr)."""
    groups = _param_groups(params)
    if options.get('lr') is _REQUIRED:
        for group in groups:
            if not group.has_option('lr'):
                raise ValueError("parameter group didn't specify a value of required optimization "
                                 "parameter lr")
        positional = (0.0,) + tuple(positional[1:])
    optimizer = new(groups[0], *positional)
    for group in groups[1:]:
        optimizer.add_param_group(group)
    return optimizer


class SGD(Gnn.SGD, Optimizer):
    """``torch.optim.SGD(params, lr, momentum=0, dampening=0, weight_decay=0, nesterov=False,
    *, maximize=False, foreach=None, differentiable=False)``; params: tensors, dicts of
    per-group options, or a module. foreach is accepted and changes nothing;
    differentiable=True is a ValueError."""

    def __new__(cls, params, lr=_REQUIRED, momentum=0, dampening=0, weight_decay=0, nesterov=False,
                *, maximize=False, foreach=None, differentiable=False):
        _refuse_unsupported('SGD', differentiable=differentiable)
        return _new_optimizer(Gnn.SGD.new, params, {'lr': lr},
                              (lr, momentum, dampening, weight_decay, nesterov, maximize))

    def __init__(self, *args, **kwargs):
        pass


SGD = override(SGD)
__all__.append('SGD')


class Adam(Gnn.Adam, Optimizer):
    """``torch.optim.Adam(params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
    amsgrad=False, *, foreach=None, maximize=False, capturable=False, differentiable=False,
    fused=False)``; foreach is accepted and changes nothing, a true capturable, differentiable
    or fused is a ValueError."""

    def __new__(cls, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, amsgrad=False,
                *, foreach=None, maximize=False, capturable=False, differentiable=False, fused=False):
        _refuse_unsupported('Adam', capturable=capturable, differentiable=differentiable, fused=fused)
        return _new_optimizer(Gnn.Adam.new, params, {},
                              (lr, betas[0], betas[1], eps, weight_decay, amsgrad, maximize))

    def __init__(self, *args, **kwargs):
        pass


Adam = override(Adam)
__all__.append('Adam')


class AdamW(Gnn.AdamW, Optimizer):
    """``torch.optim.AdamW(params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2,
    amsgrad=False, *, maximize=False, foreach=None, capturable=False, differentiable=False,
    fused=None)`` (differentiable and fused as PyTorch 2.0 has them); foreach is accepted and
    changes nothing, a true capturable, differentiable or fused is a ValueError."""

    def __new__(cls, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2, amsgrad=False,
                *, maximize=False, foreach=None, capturable=False, differentiable=False, fused=None):
        _refuse_unsupported('AdamW', capturable=capturable, differentiable=differentiable, fused=fused)
        return _new_optimizer(Gnn.AdamW.new, params, {},
                              (lr, betas[0], betas[1], eps, weight_decay, amsgrad, maximize))

    def __init__(self, *args, **kwargs):
        pass


AdamW = override(AdamW)
__all__.append('AdamW')


class RMSprop(Gnn.RMSprop, Optimizer):
    """``torch.optim.RMSprop(params, lr=1e-2, alpha=0.99, eps=1e-8, weight_decay=0, momentum=0,
    centered=False, foreach=None, maximize=False, differentiable=False)`` (PyTorch 1.13's
    order: its last three are positional too); foreach is accepted and changes nothing,
    differentiable=True is a ValueError."""

    def __new__(cls, params, lr=1e-2, alpha=0.99, eps=1e-8, weight_decay=0, momentum=0, centered=False,
                foreach=None, maximize=False, differentiable=False):
        _refuse_unsupported('RMSprop', differentiable=differentiable)
        return _new_optimizer(Gnn.RMSprop.new, params, {},
                              (lr, alpha, eps, weight_decay, momentum, centered, maximize))

    def __init__(self, *args, **kwargs):
        pass


RMSprop = override(RMSprop)
__all__.append('RMSprop')


class Adagrad(Gnn.Adagrad, Optimizer):
    """``torch.optim.Adagrad(params, lr=1e-2, lr_decay=0, weight_decay=0,
    initial_accumulator_value=0, eps=1e-10, foreach=None, *, maximize=False,
    differentiable=False)`` (differentiable as PyTorch 2.0 has it); foreach is accepted and
    changes nothing, differentiable=True is a ValueError."""

    def __new__(cls, params, lr=1e-2, lr_decay=0, weight_decay=0, initial_accumulator_value=0, eps=1e-10,
                foreach=None, *, maximize=False, differentiable=False):
        _refuse_unsupported('Adagrad', differentiable=differentiable)
        return _new_optimizer(Gnn.Adagrad.new, params, {},
                              (lr, lr_decay, weight_decay, initial_accumulator_value, eps, maximize))

    def __init__(self, *args, **kwargs):
        pass


Adagrad = override(Adagrad)
__all__.append('Adagrad')
