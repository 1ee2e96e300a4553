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
