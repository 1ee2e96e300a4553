# more optimizers (torch.optim): Adadelta, Adamax, NAdam, RAdam, Rprop, ASGD, SparseAdam,
# with torch 1.13's signatures, over their C classes
#
# SPDX-License-Identifier: LGPL-2.1-or-later
from .base import Gnn, _call_raising_python_errors, override
from .optim import Optimizer, _new_optimizer

__all__ = []


def _flatten_number_state(self, nested):
    """Optimizer._flatten_state for the optimizers that keep numbers besides step (NAdam's
    mu_product, ASGD's eta and mu), which PyTorch saves as 0-d tensors: as floats."""
    numbers = type(self)._number_state
    state = {index: {key: (float(value.item()) if key in numbers and hasattr(value, 'item') else value)
                     for key, value in entries.items()}
             for index, entries in nested['state'].items()}
    return Optimizer._flatten_state(self, {'state': state, 'param_groups': nested['param_groups']})


class Adadelta(Gnn.Adadelta, Optimizer):
    """``torch.optim.Adadelta(params, lr=1.0, rho=0.9, eps=1e-6, weight_decay=0, foreach=None,
    *, maximize=False)``; foreach is accepted and changes nothing."""

    def __new__(cls, params, lr=1.0, rho=0.9, eps=1e-6, weight_decay=0, foreach=None, *, maximize=False):
        return _call_raising_python_errors(
            _new_optimizer, Gnn.Adadelta.new, params, {}, (lr, rho, eps, weight_decay, maximize))

    def __init__(self, *args, **kwargs):
        pass


Adadelta = override(Adadelta)
__all__.append('Adadelta')


class Adamax(Gnn.Adamax, Optimizer):
    """``torch.optim.Adamax(params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
    foreach=None, *, maximize=False)``; foreach is accepted and changes nothing."""

    def __new__(cls, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, foreach=None, *,
                maximize=False):
        return _call_raising_python_errors(
            _new_optimizer, Gnn.Adamax.new, params, {},
                              (lr, betas[0], betas[1], eps, weight_decay, maximize))

    def __init__(self, *args, **kwargs):
        pass


Adamax = override(Adamax)
__all__.append('Adamax')


class NAdam(Gnn.NAdam, Optimizer):
    """``torch.optim.NAdam(params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
    momentum_decay=4e-3, foreach=None)`` (1.13 has no maximize); foreach is accepted and
    changes nothing. state mu_product is a float (torch: a 0-d tensor)."""

    _number_state = ('mu_product',)
    _flatten_state = _flatten_number_state

    def __new__(cls, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, momentum_decay=4e-3,
                foreach=None):
        return _call_raising_python_errors(
            _new_optimizer, Gnn.NAdam.new, params, {},
                              (lr, betas[0], betas[1], eps, weight_decay, momentum_decay))

    def __init__(self, *args, **kwargs):
        pass


NAdam = override(NAdam)
__all__.append('NAdam')


class RAdam(Gnn.RAdam, Optimizer):
    """``torch.optim.RAdam(params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
    foreach=None)`` (1.13 has no maximize); foreach is accepted and changes nothing."""

    def __new__(cls, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, foreach=None):
        return _call_raising_python_errors(
            _new_optimizer, Gnn.RAdam.new, params, {}, (lr, betas[0], betas[1], eps, weight_decay))

    def __init__(self, *args, **kwargs):
        pass


RAdam = override(RAdam)
__all__.append('RAdam')


class Rprop(Gnn.Rprop, Optimizer):
    """``torch.optim.Rprop(params, lr=1e-2, etas=(0.5, 1.2), step_sizes=(1e-6, 50),
    foreach=None, maximize=False)``; foreach is accepted and changes nothing."""

    def __new__(cls, params, lr=1e-2, etas=(0.5, 1.2), step_sizes=(1e-6, 50), foreach=None, maximize=False):
        return _call_raising_python_errors(
            _new_optimizer, Gnn.Rprop.new, params, {},
                              (lr, etas[0], etas[1], step_sizes[0], step_sizes[1], maximize))

    def __init__(self, *args, **kwargs):
        pass


Rprop = override(Rprop)
__all__.append('Rprop')


class ASGD(Gnn.ASGD, Optimizer):
    """``torch.optim.ASGD(params, lr=1e-2, lambd=1e-4, alpha=0.75, t0=1e6, weight_decay=0,
    foreach=None, maximize=False)``; foreach is accepted and changes nothing. state eta and
    mu are floats (torch: 0-d tensors)."""

    _number_state = ('eta', 'mu')
    _flatten_state = _flatten_number_state

    def __new__(cls, params, lr=1e-2, lambd=1e-4, alpha=0.75, t0=1e6, weight_decay=0, foreach=None,
                maximize=False):
        return _call_raising_python_errors(
            _new_optimizer, Gnn.ASGD.new, params, {}, (lr, lambd, alpha, t0, weight_decay, maximize))

    def __init__(self, *args, **kwargs):
        pass


ASGD = override(ASGD)
__all__.append('ASGD')


class SparseAdam(Gnn.SparseAdam, Optimizer):
    """``torch.optim.SparseAdam(params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8,
    maximize=False)``. gnn's gradients are dense, which torch's SparseAdam refuses: step()
    raises RuntimeError("SparseAdam does not support dense gradients, please consider Adam
    instead") once a parameter has a gradient, as torch 1.13 does."""

    def __new__(cls, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, maximize=False):
        return _call_raising_python_errors(
            _new_optimizer, Gnn.SparseAdam.new, params, {}, (lr, betas[0], betas[1], eps, maximize))

    def __init__(self, *args, **kwargs):
        pass


SparseAdam = override(SparseAdam)
__all__.append('SparseAdam')


def _lbfgs_torch_value(key, value, numel):
    """A value of torch's LBFGS state as gnn keeps it: numbers as floats, the lists of vectors
    as matrices (one row a vector), ro and al (None where unset) as vectors."""
    import torch
    if key in ('old_dirs', 'old_stps'):
        return torch.stack(list(value)) if len(value) else torch.zeros(0, numel)
    if key in ('ro', 'al'):
        return torch.tensor([0.0 if v is None else float(v) for v in value])
    if hasattr(value, 'numel') and value.numel() == 1 and key not in ('d', 'prev_flat_grad'):
        return float(value.item())
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    return value


def _lbfgs_flatten_state(self, nested):
    from gi.repository import GLib
    numel = sum(p.get_numel() for g in self.get_param_groups() for p in g.get_params())
    state = {index: {key: _lbfgs_torch_value(key, value, numel) for key, value in entries.items()}
             for index, entries in nested['state'].items()}
    groups = [{key: (GLib.Variant('ms', value) if key == 'line_search_fn' else value)
               for key, value in group.items()} for group in nested['param_groups']]
    return Optimizer._flatten_state(self, {'state': state, 'param_groups': groups})


class LBFGS(Gnn.LBFGS, Optimizer):
    """``torch.optim.LBFGS(params, lr=1, max_iter=20, max_eval=None, tolerance_grad=1e-7,
    tolerance_change=1e-9, history_size=100, line_search_fn=None)``: one parameter group;
    ``step(closure)`` calls closure (with gradients enabled) as often as the iterations and
    the line search need and returns its first result, as torch does. The state's lists of
    vectors are matrices (one row a vector); a torch state_dict's lists load."""

    _flatten_state = _lbfgs_flatten_state

    def __new__(cls, params, lr=1, max_iter=20, max_eval=None, tolerance_grad=1e-7, tolerance_change=1e-9,
                history_size=100, line_search_fn=None):
        from .optim import _param_groups
        if max_eval is None:
            max_eval = max_iter * 5 // 4
        groups = _param_groups(params)
        if len(groups) != 1:
            raise ValueError("LBFGS doesn't support per-parameter options (parameter groups)")
        return _call_raising_python_errors(
            Gnn.LBFGS.new, groups[0], lr, max_iter, max_eval, tolerance_grad, tolerance_change,
            history_size, line_search_fn)

    def __init__(self, *args, **kwargs):
        pass

    def step(self, closure):
        """One step: up to max_iter iterations of closure, which reevaluates the model and
        returns the loss; returns the loss of its first call. An exception closure raises
        ends the step and reaches the caller."""
        from .base import enable_grad
        results, raised = [], []

        def call(*_):
            if raised:
                return False, 0.0
            try:
                with enable_grad():
                    loss = closure()
            except BaseException as e:  # noqa: B902 (raised again below)
                raised.append(e)
                return False, 0.0
            results.append(loss)
            return True, float(loss)

        try:
            Gnn.LBFGS.step_closure(self, call, None)
        except Exception:
            if raised:
                raise raised[0] from None
            raise
        return results[0] if results else None


LBFGS = override(LBFGS)
__all__.append('LBFGS')
