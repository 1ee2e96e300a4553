# torch.nn.utils.prune: pruning a module's tensors by masks
#
# The methods and the reparametrization are C (gnn/nn/gnn-prune.c): pruning `weight` moves the
# parameter to `weight_orig`, registers the buffer `weight_mask` and sets the tensor attribute
# `weight` that a forward pre-hook recomputes. BasePruningMethod here is the override of
# Gnn.BasePruningMethod: a torch-style subclass writes compute_mask (t, default_mask) and sets
# PRUNING_TYPE, and C calls it through the compute_mask virtual method. An amount is a fraction
# (a float) or a count (an int), told apart as torch does.
#
# SPDX-License-Identifier: LGPL-2.1-or-later
import numbers as _numbers

from .base import Gnn, _call_raising_python_errors, _wrap_vfunc, override
from .errors import raising_torch_errors as _raising

__all__ = []


def _export(fn):
    __all__.append(fn.__name__)
    return fn


def _amount_args(amount):
    """(amount, amount_is_count) for C, after torch's type check of the amount."""
    if isinstance(amount, bool) or not isinstance(amount, _numbers.Real):
        raise TypeError('Invalid type for amount: {}. Must be int or float.'.format(amount))
    return float(amount), isinstance(amount, _numbers.Integral)


def _is_constructed(obj):
    try:
        obj.__grefcount__
        return True
    except TypeError:
        return False


def _compute_mask_vfunc(self, t, default_mask):
    return self.compute_mask(t, default_mask)


def _init_wrapper(init):
    import functools

    @functools.wraps(init)
    def __init__(self, *args, **kwargs):
        # a torch-style subclass's __init__ does not chain up: the GObject is made first
        if not _is_constructed(self):
            Gnn.BasePruningMethod.__init__(self, pruning_type=type(self).PRUNING_TYPE or 'unstructured')
        init(self, *args, **kwargs)
    __init__._gnn_wrapped = True
    return __init__


class BasePruningMethod(Gnn.BasePruningMethod):
    """torch.nn.utils.prune.BasePruningMethod: subclass it with compute_mask (t, default_mask)
    and PRUNING_TYPE ("unstructured", "structured" with a dim, or "global"); apply it with
    Cls.apply (module, name, *args, importance_scores=None, **kwargs)."""
    PRUNING_TYPE = None

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if cls.__module__.startswith(('gi.overrides.', 'gi.repository.')) or '__gtype__' in cls.__dict__:
            return
        if '__gtype_name__' not in cls.__dict__:
            from .module import _gtype_name_for
            cls.__gtype_name__ = _gtype_name_for(cls)
        if 'compute_mask' in cls.__dict__ and 'do_compute_mask' not in cls.__dict__:
            cls.do_compute_mask = _wrap_vfunc(_compute_mask_vfunc)
        elif 'do_compute_mask' in cls.__dict__ and not getattr(cls.do_compute_mask, '_gnn_wrapped', False):
            cls.do_compute_mask = _wrap_vfunc(cls.__dict__['do_compute_mask'])
        init = cls.__dict__.get('__init__')
        if init is not None and not getattr(init, '_gnn_wrapped', False):
            cls.__init__ = _init_wrapper(init)

    def __init__(self, *args, **kwargs):
        if not _is_constructed(self):
            kwargs.setdefault('pruning_type', type(self).PRUNING_TYPE or 'unstructured')
            Gnn.BasePruningMethod.__init__(self, *args, **kwargs)

    def __call__(self, module, inputs):
        """As the forward pre-hook: sets module.<name> to the pruned tensor."""
        name = self.get_tensor_name()
        module.set_tensor_attribute(name, self.apply_mask(module))

    @property
    def _tensor_name(self):
        return self.get_tensor_name()

    @_tensor_name.setter
    def _tensor_name(self, name):
        self.set_tensor_name(name)

    @property
    def dim(self):
        return self.props.dim

    @dim.setter
    def dim(self, value):
        self.props.dim = value

    @property
    def amount(self):
        value, is_count = self.get_amount()
        return int(value) if is_count else value

    def compute_mask(self, t, default_mask):
        return _call_raising_python_errors(Gnn.BasePruningMethod.compute_mask, self, t, default_mask)

    def apply_mask(self, module):
        return _call_raising_python_errors(Gnn.BasePruningMethod.apply_mask, self, module)

    def prune(self, t, default_mask=None, importance_scores=None):
        return _call_raising_python_errors(Gnn.BasePruningMethod.prune, self, t, default_mask, importance_scores)

    def remove(self, module):
        _call_raising_python_errors(Gnn.BasePruningMethod.remove, self, module)

    @classmethod
    def apply(cls, module, name, *args, importance_scores=None, **kwargs):
        method = cls(*args, **kwargs)
        return _call_raising_python_errors(Gnn.prune_apply, module, name, method, importance_scores)


for _name in ('compute_mask', 'apply_mask', 'prune', 'remove'):
    setattr(BasePruningMethod, _name, _raising(BasePruningMethod.__dict__[_name]))
BasePruningMethod.apply = classmethod(_raising(BasePruningMethod.__dict__['apply'].__func__))
BasePruningMethod = override(BasePruningMethod)
__all__.append('BasePruningMethod')


def _amount_class(c_class, pruning_type):
    class Method(c_class):
        PRUNING_TYPE = pruning_type

        def __init__(self, amount, **kwargs):
            value, is_count = _amount_args(amount)
            # the C constructor validates the amount with torch's message
            _raising(getattr(c_class, 'new'))(value, is_count)
            c_class.__init__(self, amount=value, amount_is_count=is_count, pruning_type=pruning_type, **kwargs)
    Method.__name__ = Method.__qualname__ = c_class.__name__
    return override(Method)


class PruningContainer(Gnn.PruningContainer):
    """torch.nn.utils.prune.PruningContainer: the methods applied one after the other to the
    same tensor, each among the entries the ones before it keep."""
    PRUNING_TYPE = 'unstructured'

    def __init__(self, *methods):
        Gnn.PruningContainer.__init__(self)
        if len(methods) == 1 and not isinstance(methods[0], Gnn.BasePruningMethod):
            methods = tuple(methods[0])
        for m in methods:
            self.add_pruning_method(m)

    def add_pruning_method(self, method):
        if not isinstance(method, Gnn.BasePruningMethod):
            raise TypeError('{} is not a BasePruningMethod subclass'.format(type(method)))
        _raising(Gnn.PruningContainer.add_pruning_method)(self, method)

    @property
    def _pruning_methods(self):
        return tuple(self.get_method(i) for i in range(self.get_n_methods()))

    def __len__(self):
        return self.get_n_methods()

    def __iter__(self):
        return iter(self._pruning_methods)

    def __getitem__(self, idx):
        return self._pruning_methods[idx]


PruningContainer = override(PruningContainer)
__all__.append('PruningContainer')


class PruningIdentity(Gnn.PruningIdentity):
    """torch.nn.utils.prune.Identity: prunes nothing."""
    PRUNING_TYPE = 'unstructured'


PruningIdentity = override(PruningIdentity)
__all__.append('PruningIdentity')

RandomUnstructured = _amount_class(Gnn.RandomUnstructured, 'unstructured')
L1Unstructured = _amount_class(Gnn.L1Unstructured, 'unstructured')
__all__ += ['RandomUnstructured', 'L1Unstructured']


class CustomFromMask(Gnn.CustomFromMask):
    """torch.nn.utils.prune.CustomFromMask: prunes where the given mask is 0."""
    PRUNING_TYPE = 'global'

    def __new__(cls, mask):
        return Gnn.CustomFromMask.new(mask)

    def __init__(self, mask):
        pass


CustomFromMask = override(CustomFromMask)
__all__.append('CustomFromMask')


# ---- the functions -------------------------------------------------------------------------

@_export
@_raising
def nn_utils_prune_identity(module, name):
    """torch.nn.utils.prune.identity: name reparametrized as pruned, nothing pruned."""
    _call_raising_python_errors(Gnn.prune_identity, module, name)
    return module


@_export
@_raising
def nn_utils_prune_random_unstructured(module, name, amount):
    """torch.nn.utils.prune.random_unstructured: amount of the unpruned entries pruned at random."""
    value, is_count = _amount_args(amount)
    _call_raising_python_errors(Gnn.prune_random_unstructured, module, name, value, is_count)
    return module


@_export
@_raising
def nn_utils_prune_l1_unstructured(module, name, amount, importance_scores=None):
    """torch.nn.utils.prune.l1_unstructured: the amount unpruned entries of smallest absolute
    value (or importance score) pruned."""
    value, is_count = _amount_args(amount)
    _call_raising_python_errors(Gnn.prune_l1_unstructured, module, name, value, is_count, importance_scores)
    return module


@_export
@_raising
def nn_utils_prune_custom_from_mask(module, name, mask):
    """torch.nn.utils.prune.custom_from_mask: the entries where mask is 0 pruned."""
    _call_raising_python_errors(Gnn.prune_custom_from_mask, module, name, mask)
    return module


@_export
@_raising
def nn_utils_prune_remove(module, name):
    """torch.nn.utils.prune.remove: the pruning of name made permanent."""
    _call_raising_python_errors(Gnn.prune_remove, module, name)
    return module


@_export
def nn_utils_prune_is_pruned(module):
    """torch.nn.utils.prune.is_pruned: whether a tensor of module or below it is pruned."""
    return Gnn.prune_is_pruned(module)


nn_utils_prune_BasePruningMethod = BasePruningMethod
nn_utils_prune_PruningContainer = PruningContainer
nn_utils_prune_Identity = PruningIdentity
nn_utils_prune_RandomUnstructured = RandomUnstructured
nn_utils_prune_L1Unstructured = L1Unstructured
nn_utils_prune_CustomFromMask = CustomFromMask
__all__ += ['nn_utils_prune_BasePruningMethod', 'nn_utils_prune_PruningContainer', 'nn_utils_prune_Identity',
            'nn_utils_prune_RandomUnstructured', 'nn_utils_prune_L1Unstructured', 'nn_utils_prune_CustomFromMask']


# ---- structured and global ----------------------------------------------------------------

def _norm_order(n):
    """torch.norm's p for LnStructured: a number, inf, -inf or 'fro' (2)."""
    if n == 'fro':
        return 2.0
    if isinstance(n, str):
        raise ValueError('ln_structured: the norm order {!r} is not supported (a number, inf, -inf or '
                         "'fro')".format(n))
    return float(n)


class RandomStructured(Gnn.RandomStructured):
    """torch.nn.utils.prune.RandomStructured: whole slices along dim pruned at random."""
    PRUNING_TYPE = 'structured'

    def __init__(self, amount, dim=-1):
        value, is_count = _amount_args(amount)
        _raising(Gnn.RandomStructured.new)(value, is_count, dim)
        Gnn.RandomStructured.__init__(self, amount=value, amount_is_count=is_count, dim=dim,
                                      pruning_type='structured')


RandomStructured = override(RandomStructured)


class LnStructured(Gnn.LnStructured):
    """torch.nn.utils.prune.LnStructured: the slices along dim of smallest Ln norm pruned."""
    PRUNING_TYPE = 'structured'

    def __new__(cls, amount, n, dim=-1):
        value, is_count = _amount_args(amount)
        return _raising(Gnn.LnStructured.new)(value, is_count, _norm_order(n), dim)

    def __init__(self, amount, n, dim=-1):
        pass

    @property
    def n(self):
        return self.get_n()


LnStructured = override(LnStructured)
__all__ += ['RandomStructured', 'LnStructured']


@_export
@_raising
def nn_utils_prune_random_structured(module, name, amount, dim):
    """torch.nn.utils.prune.random_structured: amount of the slices along dim pruned at random."""
    value, is_count = _amount_args(amount)
    _call_raising_python_errors(Gnn.prune_random_structured, module, name, value, is_count, dim)
    return module


@_export
@_raising
def nn_utils_prune_ln_structured(module, name, amount, n, dim, importance_scores=None):
    """torch.nn.utils.prune.ln_structured: the amount slices along dim of smallest Ln norm pruned."""
    value, is_count = _amount_args(amount)
    _call_raising_python_errors(Gnn.prune_ln_structured, module, name, value, is_count, _norm_order(n), dim,
                                importance_scores)
    return module


@_export
@_raising
def nn_utils_prune_global_unstructured(parameters, pruning_method, importance_scores=None, **kwargs):
    """torch.nn.utils.prune.global_unstructured: the (module, name) pairs pruned together, as
    one vector, by pruning_method (an unstructured class, made with **kwargs)."""
    from collections.abc import Iterable
    if not isinstance(parameters, Iterable):
        raise TypeError('global_unstructured(): parameters is not an Iterable')
    parameters = list(parameters)
    importance_scores = importance_scores if importance_scores is not None else {}
    if not isinstance(importance_scores, dict):
        raise TypeError('global_unstructured(): importance_scores must be of type dict')
    method = pruning_method(**kwargs)
    modules = [m for m, _ in parameters]
    names = [n for _, n in parameters]
    # torch's default score of a tensor: its current value
    scores = [importance_scores.get((m, n), getattr(m, n)) for m, n in parameters]
    _call_raising_python_errors(Gnn.prune_global_unstructured, modules, names, method, scores)


nn_utils_prune_RandomStructured = RandomStructured
nn_utils_prune_LnStructured = LnStructured
__all__ += ['nn_utils_prune_RandomStructured', 'nn_utils_prune_LnStructured']


# ---- the sparsity report (a gnn extension: torch.nn.utils.prune has none) -----------------

import collections as _collections

SparsityEntry = _collections.namedtuple('SparsityEntry', 'path type name zeros numel fraction pruned')
SparsityEntry.__doc__ = """One row of a SparsityReport: a module's path and type, a tensor's name, its zeros,
its entries, their fraction and whether it is pruned (gnn's own; torch has no report)."""


class SparsityReport(Gnn.SparsityReport):
    """gnn's own sparsity report (torch.nn.utils.prune has none; its tutorial counts
    torch.sum(module.weight == 0) by hand): rows of SparsityEntry, one per tensor, and the
    global zeros, numel and fraction over all of them. str() prints it as a table."""

    @property
    def entries(self):
        return [SparsityEntry(self.get_module_path(i), self.get_module_type(i), self.get_tensor_name(i),
                              self.get_zeros(i), self.get_numel(i), self.get_fraction(i), self.get_pruned(i))
                for i in range(self.get_n_tensors())]

    @property
    def zeros(self):
        return self.get_global_zeros()

    @property
    def numel(self):
        return self.get_global_numel()

    @property
    def fraction(self):
        return self.get_global_fraction()

    def module(self, path):
        """(zeros, numel) of the module at path's own rows together, or None when it has none."""
        found, zeros, numel = self.lookup_module(path)
        return (zeros, numel) if found else None

    def __len__(self):
        return self.get_n_tensors()

    def __iter__(self):
        return iter(self.entries)

    def __getitem__(self, idx):
        return self.entries[idx]

    def __str__(self):
        return self.to_string()

    def __repr__(self):
        return 'SparsityReport(tensors={}, zeros={}, numel={}, fraction={:.4f})'.format(
            len(self), self.zeros, self.numel, self.fraction)


SparsityReport = override(SparsityReport)
__all__ += ['SparsityReport', 'SparsityEntry']


@_export
@_raising
def nn_utils_prune_sparsity_report(module, names=None, pruned_only=False):
    """gnn's own, not a torch function (torch.nn.utils.prune has no report): how sparse the
    prunable tensors of module and its submodules are. One row per module's own parameter, or,
    for a pruned tensor, the tensor the forward reads (weight_orig * weight_mask, as 'weight');
    names (a name or a list of names, e.g. 'weight') and pruned_only choose the rows, and the
    report's zeros/numel/fraction are over the rows chosen. Returns a SparsityReport."""
    if isinstance(names, str):
        names = [names]
    elif names is not None:
        names = list(names)
    return _call_raising_python_errors(Gnn.prune_sparsity_report, module, names, bool(pruned_only))
