# more of torch's Python surface, composed from what gnn already has:
#   - the hyperparameters of the loss modules as the attributes torch's losses have
#     (loss.reduction, loss.ignore_index, loss.label_smoothing, loss.margin, ...), readable and
#     writable as torch's, over the GObject properties of the C losses;
#   - torch.utils.data's iterable-style datasets (IterableDataset, ChainDataset), get_worker_info
#     and default_convert;
#   - torch.autograd.backward, gradcheck / gradgradcheck, Variable and autograd.graph's hooks;
#   - Tensor methods and torch functions that compose from existing ops (unfold, as_strided,
#     the *_scatter and *_copy functions, window functions, gradient, ...).
#
# SPDX-License-Identifier: LGPL-2.1-or-later
from .base import Gnn

__all__ = []


def _export(fn):
    __all__.append(fn.__name__)
    return fn


# ---- the losses' hyperparameters as attributes ----
#
# torch's _Loss keeps `reduction` as a plain attribute, and each loss its own (ignore_index,
# label_smoothing, margin, p, eps, swap, full, log_input, log_target, delta, beta, blank,
# zero_infinity): the attribute reads and writes the C loss's property of that name, which the
# next forward uses. (weight and pos_weight are buffers, as torch's: the module's attribute
# lookup finds them.)

def _reduction_name(value):
    return value.value_nick.lower() if hasattr(value, 'value_nick') else str(value)


class _LossAttribute:
    """A data descriptor over the GObject property `prop` of a loss."""

    def __init__(self, name, prop):
        self.name, self.prop = name, prop

    def __get__(self, obj, owner=None):
        if obj is None:
            return self
        value = obj.get_property(self.prop)
        if self.prop == 'reduction':
            return _reduction_name(value)
        return value

    def __set__(self, obj, value):
        if self.prop == 'reduction':
            member = getattr(Gnn.Reduction, str(value).upper(), None) if isinstance(value, str) else None
            if member is None:
                raise ValueError('%s is not a valid value for reduction' % (value,))
            value = member
        elif isinstance(value, bool) or not isinstance(value, (int, float)):
            pass
        obj.set_property(self.prop, value)


def _install_loss_attributes():
    from gi.repository import GObject
    module_type = Gnn.Module.__gtype__
    for name in dir(Gnn):
        cls = getattr(Gnn, name, None)
        if not isinstance(cls, type) or not issubclass(cls, Gnn.Loss):
            continue
        for pspec in GObject.list_properties(cls.__gtype__):
            if pspec.owner_type == module_type or pspec.value_type.is_a(Gnn.Tensor.__gtype__):
                continue
            if not pspec.flags & GObject.ParamFlags.READABLE:
                continue
            attr = pspec.name.replace('-', '_')
            if attr not in cls.__dict__:
                setattr(cls, attr, _LossAttribute(attr, pspec.name))


_install_loss_attributes()
