"""Rows for the shape and indexing ops: splitting into views (chunk, split, tensor_split,
unbind), moving dims (movedim, swapaxes), flatten, expand_as and diagonal."""
import numpy as np

from opspec import Bad, P, Spec

SPECS = [
    Spec('chunk', lambda T, x, n=3, d=1: T.chunk(x, n, d), [((3, 5),), ((2, 6, 2), 4, -2), ((4, 3), 2, 0)],
         bad=[Bad(((3, 4), 0), ['chunk', 'greater than 0']), Bad(((3, 4), 2, 2), ['Dimension out of range'])]),
    Spec('Tensor_chunk', lambda T, x: x.chunk(2, -1), [((3, 5),)]),
    Spec('split', lambda T, x, s=2, d=1: T.split(x, s, d), [((3, 5),), ((2, 4, 3), 4, 1), ((6, 2), 3, 0)],
         bad=[Bad(((3, 4), -1), ['split_size', '-1'])]),
    Spec('split_sizes', lambda T, x, s=[1, 3, 1], d=1: x.split(s, d),
         [((3, 5),), ((4, 3), P([0, 4]), 0), ((2, 4, 3), P((2, 2)), -2)],
         bad=[Bad(((3, 5), P([1, 3])), ['split_with_sizes', '5', '[1, 3]']),
              Bad(((3, 5), P([6, -1])), ['non-negative', '[6, -1]'])]),
    Spec('tensor_split', lambda T, x, s=3, d=1: T.tensor_split(x, s, d),
         [((3, 7),), ((2, 4, 3), 3, -1), ((5, 2), P([1, 3]), 0), ((3, 6), P([-2, 1, 4]), 1)],
         bad=[Bad(((3, 4), 0), ['number of sections', '0'])]),
    Spec('unbind', lambda T, x, d=0: T.unbind(x, d), [((3, 4),), ((2, 3, 2), 1), ((2, 3), -1)],
         bad=[Bad(((3, 4), 2), ['Dimension out of range'])]),
    Spec('movedim', lambda T, x, s=0, d=-1: T.movedim(x, s, d),
         [((2, 3, 4),), ((2, 3, 4, 2), P((0, 1)), P((3, 0))), ((3, 4), 1, 0)],
         bad=[Bad(((2, 3, 4), P((0, 0)), P((1, 2))), ['repeated dim', 'source']),
              Bad(((2, 3, 4), P((0, 1)), P((1,))), ['movedim', 'same number'])]),
    Spec('moveaxis', lambda T, x: T.moveaxis(x, 2, 0), [((2, 3, 4),)]),
    Spec('swapaxes', lambda T, x: T.swapaxes(x, 0, 2), [((2, 3, 4),)]),
    Spec('swapdims', lambda T, x: x.swapdims(-1, 0), [((3, 4),)]),
    Spec('flatten_dims', lambda T, x, s=1, e=2: T.flatten(x, s, e),
         [((2, 3, 4, 2),), ((3, 4), 0, 1), ((2, 3, 4), 1, 1), ((4,), 0, 0)],
         bad=[Bad(((2, 3, 4), 2, 1), ['flatten', 'start_dim'])]),
    Spec('expand_as', lambda T, x, o: x.expand_as(o),
         [((3, 1), np.zeros((2, 3, 4), np.int64)), ((1, 4), np.zeros((3, 4), np.int64))],
         tslice=False, bad=[Bad(((3, 2), np.zeros((3, 4), np.int64)), ['expanded size', '2'])]),
    Spec('diagonal', lambda T, x, o=0, a=0, b=1: T.diagonal(x, o, a, b),
         [((3, 4),), ((3, 4), 1), ((4, 3), -2), ((2, 3, 4), -1, 0, 2), ((2, 3, 3), 0, -1, -2), ((2, 3), 5)],
         bad=[Bad(((3, 4), 0, 1, 1), ['diagonal dimensions cannot be identical'])]),
    Spec('Tensor_diagonal', lambda T, x: x.diagonal(1, -2, -1), [((2, 3, 4),)]),
]

_MASK_34 = np.array([[True, False, False, True], [False, True, True, False], [False, False, True, True]])
_MASK_4 = np.array([True, False, True, False])

SPECS += [
    Spec('masked_fill', lambda T, x, m, v=1.5: T.masked_fill(x, m, v),
         [((3, 4), _MASK_34), ((3, 4), _MASK_4, -2), ((4,), _MASK_34, 0.25), ((2, 3, 4), _MASK_4)],
         bad=[Bad(((3, 4), _MASK_34[:2]), ['size', '2'])]),
    # the value reshaped to 0-d in fn: the runner gives a () shape as a 1-element array
    Spec('masked_fill_tensor', lambda T, x, m, v: x.masked_fill(m, v.reshape(()) if v.numel() == 1 else v),
         [((3, 4), _MASK_34, ()), ((4,), _MASK_34, ())],
         bad=[Bad(((3, 4), _MASK_34, (2,)), ['0-dimensional value tensor', '1 dimension'])]),
    Spec('masked_fill_int', lambda T, x, m: x.masked_fill(m, 7.9), [((3, 4), _MASK_34)],
         dtypes=(np.int64,), low=-5, high=5),
    Spec('tril', lambda T, x, k=0: T.tril(x, k), [((3, 4),), ((4, 3), -1), ((2, 3, 4), 2), ((3, 3), -5)],
         bad=[Bad(((4,),), ['Dimension out of range'])]),
    Spec('triu', lambda T, x, k=0: x.triu(k), [((3, 4),), ((4, 3), 1), ((2, 3, 4), -1), ((3, 3), 5)],
         bad=[Bad(((4,),), ['Dimension out of range'])]),
    Spec('tril_int', lambda T, x: x.tril(1), [((3, 4),)], dtypes=(np.int64, np.bool_), low=-5, high=5),
]
