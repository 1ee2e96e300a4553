# losses_more: torch.nn.functional's distances and the losses added after the first ones,
# with torch's signatures, over the C functions (gnn/nn/gnn-distance.c, gnn-loss-more.c).
# They are Gnn.functional_<name>; the rows of names.py put them in gnn.nn.functional (and
# the distances in gnn) under torch's names.
#
# SPDX-License-Identifier: LGPL-2.1-or-later
import numbers as _numbers

from .base import Gnn

__all__ = []

_T = Gnn.Tensor


def _export(fn):
    fn.__doc__ = fn.__doc__ or 'torch.nn.functional.%s, over the C function' % fn.__name__
    globals()['functional_' + fn.__name__] = fn
    __all__.append('functional_' + fn.__name__)
    return fn


def _tensor(name, what, value):
    if not isinstance(value, Gnn.Tensor):
        raise TypeError("%s(): argument '%s' (position %d) must be Tensor, not %s"
                        % (name, what[0], what[1], type(value).__name__))
    return value


def _int(name, what, value):
    if isinstance(value, bool) or not isinstance(value, _numbers.Integral):
        raise TypeError("%s(): argument '%s' must be int, not %s" % (name, what, type(value).__name__))
    return int(value)


# ---- distances ----

@_export
def cosine_similarity(x1, x2, dim=1, eps=1e-8):
    _tensor('cosine_similarity', ('x1', 1), x1)
    _tensor('cosine_similarity', ('x2', 2), x2)
    return _T.cosine_similarity(x1, x2, _int('cosine_similarity', 'dim', dim), float(eps))


@_export
def pairwise_distance(x1, x2, p=2.0, eps=1e-6, keepdim=False):
    _tensor('pairwise_distance', ('x1', 1), x1)
    _tensor('pairwise_distance', ('x2', 2), x2)
    return _T.pairwise_distance(x1, x2, float(p), float(eps), bool(keepdim))


@_export
def pdist(input, p=2):
    _tensor('pdist', ('input', 1), input)
    return _T.pdist(input, float(p))


# ---- the margin, embedding, multi-label and likelihood losses (gnn/nn/gnn-loss-more.c) ----
# torch 1.13's functionals over the C functions, and the loss classes with torch's
# constructors (the deprecated size_average / reduce mapped to a reduction as torch's
# _Reduction.legacy_get_string maps them). A C error leaves as the class torch raises
# (ValueError for a bad p, weight or var, as torch's Python checks raise it).
# triplet_margin_with_distance_loss with a Python distance_function is composed here, so that
# an exception of that function reaches the caller as it is; without one it is the C function.

from .errors import raising_torch_errors as _raising
from .functional import _reduction


def _reduction_named(reduction, size_average=None, reduce=None, message=None):
    """_reduction, with torch's other wording of a bad reduction where a function has one."""
    try:
        return _reduction(reduction, size_average, reduce)
    except ValueError:
        if message is None:
            raise
        raise ValueError(message % (reduction,)) from None


def _loss(fn):
    fn.__doc__ = 'torch.nn.functional.%s, over the C function' % fn.__name__
    wrapped = _raising(fn)
    globals()['functional_' + fn.__name__] = wrapped
    __all__.append('functional_' + fn.__name__)
    return fn


@_loss
def cosine_embedding_loss(input1, input2, target, margin=0, size_average=None, reduce=None, reduction='mean'):
    return _T.cosine_embedding_loss(input1, input2, target, float(margin), _reduction(reduction, size_average, reduce))


@_loss
def gaussian_nll_loss(input, target, var, full=False, eps=1e-06, reduction='mean'):
    return _T.gaussian_nll_loss(input, target, var, bool(full), float(eps),
                                _reduction_named(reduction, message='%s is not valid'))


@_loss
def hinge_embedding_loss(input, target, margin=1.0, size_average=None, reduce=None, reduction='mean'):
    return _T.hinge_embedding_loss(input, target, float(margin), _reduction(reduction, size_average, reduce))


@_loss
def margin_ranking_loss(input1, input2, target, margin=0, size_average=None, reduce=None, reduction='mean'):
    return _T.margin_ranking_loss(input1, input2, target, float(margin), _reduction(reduction, size_average, reduce))


@_loss
def multilabel_margin_loss(input, target, size_average=None, reduce=None, reduction='mean'):
    return _T.multilabel_margin_loss(input, target, _reduction(reduction, size_average, reduce))


@_loss
def multilabel_soft_margin_loss(input, target, weight=None, size_average=None, reduce=None, reduction='mean'):
    return _T.multilabel_soft_margin_loss(input, target, weight,
                                          _reduction_named(reduction, size_average, reduce, '%s is not valid'))


@_loss
def multi_margin_loss(input, target, p=1, margin=1.0, weight=None, size_average=None, reduce=None,
                      reduction='mean'):
    r = _reduction(reduction, size_average, reduce)
    if p != 1 and p != 2:
        raise ValueError('only p == 1 and p == 2 supported')
    return _T.multi_margin_loss(input, target, int(p), float(margin), weight, r)


@_loss
def poisson_nll_loss(input, target, log_input=True, full=False, size_average=None, eps=1e-08, reduce=None,
                     reduction='mean'):
    return _T.poisson_nll_loss(input, target, bool(log_input), bool(full), float(eps),
                               _reduction_named(reduction, size_average, reduce, '%s is not valid'))


@_loss
def soft_margin_loss(input, target, size_average=None, reduce=None, reduction='mean'):
    return _T.soft_margin_loss(input, target, _reduction(reduction, size_average, reduce))


@_loss
def triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2, eps=1e-06, swap=False, size_average=None,
                        reduce=None, reduction='mean'):
    return _T.triplet_margin_loss(anchor, positive, negative, float(margin), float(p), float(eps), bool(swap),
                                  _reduction(reduction, size_average, reduce))


def _triplet_from_distances(d_ap, d_an, d_pn, margin, reduction):
    if d_pn is not None:
        d_an = _T.minimum(d_an, d_pn)
    loss = _T.clamp_min(_T.add_scalar(_T.sub(d_ap, d_an, 1.0), float(margin)), 0.0)
    if reduction == Gnn.Reduction.MEAN:
        return _T.mean_all(loss)
    if reduction == Gnn.Reduction.SUM:
        return _T.sum_all(loss)
    return loss


@_loss
def triplet_margin_with_distance_loss(anchor, positive, negative, *, distance_function=None, margin=1.0,
                                      swap=False, reduction='mean'):
    r = _reduction(reduction)
    if distance_function is None:
        return _T.triplet_margin_with_distance_loss(anchor, positive, negative, None, None, float(margin),
                                                    bool(swap), r)
    d_ap = distance_function(anchor, positive)
    d_an = distance_function(anchor, negative)
    d_pn = distance_function(positive, negative) if swap else None
    return _triplet_from_distances(d_ap, d_an, d_pn, margin, r)


# the classes: torch's constructors (in torch's order, GaussianNLLLoss's and
# TripletMarginWithDistanceLoss's keyword-only as torch's), the legacy arguments mapped

_LEGACY = [('size_average', None), ('reduce', None), ('reduction', 'mean')]
_LOSS_SIGNATURES = {
    'CosineEmbeddingLoss': ([('margin', 0.0)] + _LEGACY, False),
    'GaussianNLLLoss': ([('full', False), ('eps', 1e-06), ('reduction', 'mean')], True),
    'HingeEmbeddingLoss': ([('margin', 1.0)] + _LEGACY, False),
    'MarginRankingLoss': ([('margin', 0.0)] + _LEGACY, False),
    'MultiLabelMarginLoss': (_LEGACY, False),
    'MultiLabelSoftMarginLoss': ([('weight', None)] + _LEGACY, False),
    'MultiMarginLoss': ([('p', 1), ('margin', 1.0), ('weight', None)] + _LEGACY, False),
    'PoissonNLLLoss': ([('log_input', True), ('full', False), ('size_average', None), ('eps', 1e-08),
                        ('reduce', None), ('reduction', 'mean')], False),
    'SoftMarginLoss': (_LEGACY, False),
    'TripletMarginLoss': ([('margin', 1.0), ('p', 2.0), ('eps', 1e-06), ('swap', False)] + _LEGACY, False),
}


def _legacy_reduction(values):
    """Pops size_average and reduce from @values, setting reduction as torch's _Loss does."""
    size_average, reduce = values.pop('size_average', None), values.pop('reduce', None)
    if size_average is not None or reduce is not None:
        size_average = True if size_average is None else size_average
        reduce = True if reduce is None else reduce
        values['reduction'] = 'mean' if size_average and reduce else 'sum' if reduce else 'none'


def _loss_class(name, signature, keyword_only):
    import inspect
    from .base import override
    from .layers import _layer_init
    P = inspect.Parameter
    kind = P.KEYWORD_ONLY if keyword_only else P.POSITIONAL_OR_KEYWORD
    sig = inspect.Signature([P('self', P.POSITIONAL_OR_KEYWORD)] + [P(n, kind, default=d) for n, d in signature])
    inner = _layer_init(name, [(n, d) for n, d in signature if n not in ('size_average', 'reduce')])

    def __init__(self, *args, **kwargs):
        try:
            bound = sig.bind(self, *args, **kwargs)
        except TypeError as e:
            raise TypeError('%s(): %s' % (name, e)) from None
        values = dict(bound.arguments)
        del values['self']
        _legacy_reduction(values)
        inner(self, **values)

    __init__.__signature__ = sig
    __init__.__doc__ = 'torch.nn.%s%s' % (name, str(sig).replace('self, ', ''))
    cls = type(name, (getattr(Gnn, name),), {'__init__': __init__, '__module__': __name__})
    return override(cls)


for _name, (_signature, _kwonly) in _LOSS_SIGNATURES.items():
    if hasattr(Gnn, _name):
        globals()[_name] = _loss_class(_name, _signature, _kwonly)
        __all__.append(_name)
del _name, _signature, _kwonly


if hasattr(Gnn, 'TripletMarginWithDistanceLoss'):
    from .base import override as _override, _call_raising_python_errors as _c

    class TripletMarginWithDistanceLoss(Gnn.TripletMarginWithDistanceLoss):
        """torch.nn.TripletMarginWithDistanceLoss(*, distance_function=None, margin=1.0, swap=False,
        reduction='mean'): a module distance_function is the child distance_function (torch's
        PairwiseDistance without one); a plain callable is called from Python by forward."""

        def __init__(self, *, distance_function=None, margin=1.0, swap=False, reduction='mean'):
            Gnn.TripletMarginWithDistanceLoss.__init__(self, margin=float(margin), swap=bool(swap),
                                                       reduction=_reduction(reduction))
            plain = distance_function is not None and not isinstance(distance_function, Gnn.Module)
            if plain:
                # C forward (a container calling this module) calls it too, through this closure
                self.set_distance_function(lambda x1, x2: distance_function(x1, x2))
                self.__dict__['_distance_callable'] = distance_function
            _c(Gnn.Module.setup, self)
            if isinstance(distance_function, Gnn.Module):
                self.register_module('distance_function', distance_function)

        def __call__(self, anchor, positive, negative):
            fn = self.__dict__.get('_distance_callable')
            if fn is None:
                return super().__call__(anchor, positive, negative)
            return triplet_margin_with_distance_loss(anchor, positive, negative, distance_function=fn,
                                                     margin=self.props.margin, swap=self.props.swap,
                                                     reduction=self.props.reduction.value_nick)

        @property
        def distance_function(self):
            fn = self.__dict__.get('_distance_callable')
            return fn if fn is not None else self.get_submodule('distance_function')

    TripletMarginWithDistanceLoss = _override(TripletMarginWithDistanceLoss)
    __all__.append('TripletMarginWithDistanceLoss')


# ---- CTCLoss (gnn/ops/gnn-ops-ctc.c: forward and backward in C) ----

def _lengths(value):
    """input_lengths / target_lengths as torch takes them (a tensor, a sequence, an int) as a
    list of ints for the C function."""
    import numbers
    import numpy as np
    if isinstance(value, Gnn.Tensor):
        return [int(v) for v in np.asarray(value).reshape(-1)]
    if isinstance(value, numbers.Integral):
        return [int(value)]
    return [int(v) for v in value]


@_loss
def ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, reduction='mean', zero_infinity=False):
    return _T.ctc_loss(log_probs, targets, _lengths(input_lengths), _lengths(target_lengths), int(blank),
                       _reduction(reduction), bool(zero_infinity))


if hasattr(Gnn, 'CTCLoss'):
    _CTCBase = _loss_class('CTCLoss', [('blank', 0), ('reduction', 'mean'), ('zero_infinity', False)], False)

    def _ctc_call(self, log_probs, targets, input_lengths, target_lengths):
        """CTCLoss(log_probs, targets, input_lengths, target_lengths), the lengths as torch takes
        them (tensors, sequences of ints)."""
        from .module import Module
        from .tensor import Tensor
        import numpy as np

        def as_tensor(v):
            return Tensor.from_numpy(np.asarray(_lengths(v), dtype=np.int64))
        return Module.__call__(self, log_probs, targets, as_tensor(input_lengths), as_tensor(target_lengths))

    _CTCBase.__call__ = _ctc_call
    CTCLoss = _CTCBase
    __all__.append('CTCLoss')
