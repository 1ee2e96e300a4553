# module copies and weight averaging (torch.optim.swa_utils)
#
# SPDX-License-Identifier: LGPL-2.1-or-later
from .base import Gnn, _call_raising_python_errors, _hook_state, no_grad, override
from .tensor import _device_string
from .module import Module
from .state_dict import _as_gnn_tensor

__all__ = []


def _tensor_deepcopy(self, memo):
    """copy.deepcopy of a tensor: its values in new memory, without history, keeping
    requires_grad (a Parameter stays a Parameter)."""
    if id(self) in memo:
        return memo[id(self)]
    with no_grad():
        data = self.clone()
    if isinstance(self, Gnn.Parameter):
        result = Gnn.Parameter.new(data, self.get_requires_grad())
    elif isinstance(self, Gnn.Buffer):
        result = Gnn.Buffer.new(data, self.get_persistent())
    else:
        result = data
        if self.get_requires_grad():
            result.set_requires_grad(True)
    memo[id(self)] = result
    return result


Gnn.Tensor.__deepcopy__ = _tensor_deepcopy


def _module_deepcopy(self, memo):
    """copy.deepcopy (module): Gnn.Module.copy copies the module tree (parameters, buffers,
    submodules, sharing kept; hooks are not copied), then the Python attributes of every module
    of the tree are deep-copied into its copy, references to the tree's modules, parameters and
    buffers becoming references to their copies."""
    import copy
    if id(self) in memo:
        return memo[id(self)]
    result = _call_raising_python_errors(Gnn.Module.copy, self)
    memo[id(self)] = result
    pairs = list(zip(Gnn.Module.modules(self), Gnn.Module.modules(result)))
    for a, b in pairs:
        memo.setdefault(id(a), b)
    for get in (Gnn.Module.parameters, Gnn.Module.buffers):
        for a, b in zip(get(self, True), get(result, True)):
            memo.setdefault(id(a), b)
    for a, b in pairs:
        for key, value in list(vars(a).items()):
            try:
                value = copy.deepcopy(value, memo)
            except Exception:  # an object deepcopy cannot copy is shared, as a property is
                pass
            vars(b)[key] = value
    return result


Module.__deepcopy__ = _module_deepcopy


def _avg_fn_callback(fn):
    def trampoline(averaged, current, n_averaged, *_user_data):
        try:
            result = fn(averaged, current, n_averaged)
            return None if result is None else _as_gnn_tensor(result)
        except BaseException as e:  # raised again by update_parameters
            if getattr(_hook_state, 'error', None) is None:
                _hook_state.error = e
            return None
    return Gnn.AverageFunction.new_callback(trampoline)


def _multi_avg_fn_callback(fn):
    def trampoline(averaged, current, n, n_averaged, *_user_data):
        try:
            fn(list(averaged), list(current), n_averaged)
            return True
        except BaseException as e:  # raised again by update_parameters
            if getattr(_hook_state, 'error', None) is None:
                _hook_state.error = e
            return False
    return Gnn.AverageFunction.new_multi_callback(trampoline)


def _as_average_function(fn, multi):
    if fn is None or isinstance(fn, Gnn.AverageFunction):
        return fn
    if not callable(fn):
        raise TypeError('%s must be a Gnn.AverageFunction or a callable, not %s'
                        % ('multi_avg_fn' if multi else 'avg_fn', type(fn).__name__))
    return _multi_avg_fn_callback(fn) if multi else _avg_fn_callback(fn)


class AverageFunction(Gnn.AverageFunction):
    """An averaging function; called as PyTorch's: a list function updates the lists in place,
    a function of one tensor returns the new averaged value."""

    def __call__(self, averaged, current, n_averaged):
        if not isinstance(n_averaged, Gnn.Tensor):
            n_averaged = Gnn.Tensor.new_scalar(float(n_averaged), Gnn.Dtype.INT64, None)
        if self.get_multi():
            _call_raising_python_errors(Gnn.AverageFunction.apply, self, list(averaged), list(current),
                                        n_averaged)
            return None
        with no_grad():
            result = averaged.clone()
        _call_raising_python_errors(Gnn.AverageFunction.apply, self, [result], [current], n_averaged)
        return result


AverageFunction = override(AverageFunction)
__all__.append('AverageFunction')


def get_ema_multi_avg_fn(decay=0.999):
    """torch.optim.swa_utils.get_ema_multi_avg_fn: Gnn.AverageFunction.new_ema_multi."""
    return Gnn.AverageFunction.new_ema_multi(decay)


def get_swa_multi_avg_fn():
    """torch.optim.swa_utils.get_swa_multi_avg_fn: Gnn.AverageFunction.new_swa_multi."""
    return Gnn.AverageFunction.new_swa_multi()


def get_ema_avg_fn(decay=0.999):
    """torch.optim.swa_utils.get_ema_avg_fn: Gnn.AverageFunction.new_ema."""
    return Gnn.AverageFunction.new_ema(decay)


def get_swa_avg_fn():
    """torch.optim.swa_utils.get_swa_avg_fn: Gnn.AverageFunction.new_swa."""
    return Gnn.AverageFunction.new_swa()


__all__ += ['get_ema_multi_avg_fn', 'get_swa_multi_avg_fn', 'get_ema_avg_fn', 'get_swa_avg_fn']



class AveragedModel(Gnn.AveragedModel):
    """torch.optim.swa_utils.AveragedModel (model, device=None, avg_fn=None,
    multi_avg_fn=None, use_buffers=False), in PyTorch 2.1's order (1.13 has no multi_avg_fn);
    model is required, as in PyTorch (C and the JSON tree make one without it through
    gnn_averaged_model_new and g_object_new, which do not run this). avg_fn / multi_avg_fn: a Gnn.AverageFunction (such
    as get_ema_multi_avg_fn (0.999)) or a Python function with PyTorch's signature. The model is
    copied with copy.deepcopy, so that Python attributes of Python modules are copied too."""

    def __init__(self, model, device=None, avg_fn=None, multi_avg_fn=None, use_buffers=False, **kwargs):
        import copy
        if not isinstance(model, Gnn.Module):
            raise TypeError('AveragedModel averages a module, not %s' % type(model).__name__)
        super().__init__(avg_fn=_as_average_function(avg_fn, False),
                         multi_avg_fn=_as_average_function(multi_avg_fn, True),
                         use_buffers=use_buffers, **kwargs)
        Gnn.Module.setup(self)   # raises when both functions are given
        self.register_module('module', copy.deepcopy(model))
        device = _device_string(device)
        if device is not None:
            self.to_device(device)

    def update_parameters(self, model):
        """Blends model's parameters into the average; an exception raised by a Python
        averaging function is raised again here."""
        _call_raising_python_errors(Gnn.AveragedModel.update_parameters, self, model)


AveragedModel = override(AveragedModel)
__all__.append('AveragedModel')


def update_bn(loader, model, device=None):
    """torch.optim.swa_utils.update_bn: loader is a Gio.ListModel or any iterable of batches,
    each a tensor (Gnn, numpy or torch) or a list / tuple whose first item is the input."""
    from gi.repository import Gio
    if not isinstance(loader, Gio.ListModel):
        store = Gio.ListStore.new(Gnn.Tensor)
        for batch in loader:
            if isinstance(batch, (list, tuple)):
                batch = batch[0]
            tensor = _as_gnn_tensor(batch)
            if tensor is None:
                raise TypeError('update_bn: a batch is a %s, not a tensor' % type(batch).__name__)
            store.append(tensor)
        loader = store
    _call_raising_python_errors(Gnn.update_bn, loader, model, _device_string(device))


__all__.append('update_bn')
