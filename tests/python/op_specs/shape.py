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

# scatter family: indices fixed (each in range); _I0 has no two entries of a column naming one
# place (scatter's replace is then deterministic), _I0_DUP repeats places (the reductions)
_I0 = np.array([[0, 1, 2, 0], [2, 0, 0, 1]])
_I0_DUP = np.array([[0, 1, 1, 0], [0, 2, 1, 0], [2, 2, 1, 0]])
_I1 = np.array([[3, 0, 1], [2, 1, 3]])
_I1_DUP = np.array([[3, 3, 1], [0, 1, 0]])
_REDUCE_CASES = [((3, 4), 0, _I0_DUP, (3, 4)), ((3, 4), 1, _I1_DUP, (2, 3)), ((3, 4), -2, _I0, (2, 4)),
                 ((2, 3, 4), 2, np.array([[[0, 0, 3], [1, 1, 1]]]), (1, 2, 3))]


def _reduce_spec(reduce, include_self, **kw):
    name = 'scatter_reduce_%s%s' % (reduce, '' if include_self else '_exclude_self')
    return Spec(name, lambda T, x, d, i, s: x.scatter_reduce(d, i, s, reduce, include_self=include_self),
                _REDUCE_CASES, **kw)


SPECS += [
    Spec('scatter', lambda T, x, d, i, s: T.scatter(x, d, i, s),
         [((3, 4), 0, _I0, (2, 4)), ((3, 4), 1, _I1, (2, 3)), ((3, 4), -1, _I1, (2, 3)), ((), 0, np.array(0), ())],
         bad=[Bad(((3, 4), 0, np.array([[0, 3]]), (1, 2)), ['scatter', 'index 3', 'size 3']),
              Bad(((3, 4), 0, np.array([[0, -1]]), (1, 2)), ['scatter', 'index -1', 'size 3']),
              Bad(((3, 4), 0, np.array([[0.0, 1.0]]), (1, 2)), ['scatter', 'int64']),
              Bad(((3, 4), 0, np.array([0, 1]), (2,)), ['scatter', 'same number of dimensions']),
              Bad(((3, 4), 0, np.zeros((4, 5), np.int64), (3, 4)), ['scatter', 'smaller', '[4, 5]', '[3, 4]']),
              Bad(((3, 4), 2, _I0, (2, 4)), ['Dimension out of range'])]),
    Spec('Tensor_scatter_value', lambda T, x, d, i: x.scatter(d, i, -1.25),
         [((3, 4), 0, _I0), ((3, 4), 1, _I1_DUP), ((2, 3, 4), 1, np.array([[[0, 2], [1, 0]]]))]),
    Spec('scatter_int', lambda T, x, i: x.scatter(1, i, 7.9), [((3, 4), _I1_DUP)], dtypes=(np.int64,), low=-5, high=5),
    Spec('scatter_src_int', lambda T, x, i, s: x.scatter(0, i, s), [((3, 4), _I0, (2, 4))],
         dtypes=(np.int64,), low=-5, high=5),
    # torch 1.13's reduce= forms: values only (torch has no derivative, nor has gnn)
    Spec('scatter_reduce_add', lambda T, x, i, s: x.scatter(0, i, s, reduce='add'), [((3, 4), _I0_DUP, (3, 4))],
         grad=False),
    Spec('scatter_bad_reduce', lambda T, x, i, s: x.scatter(0, i, s, reduce='sum'), [], grad=False,
         bad=[Bad(((3, 4), _I0, (2, 4)), ['scatter', 'add or multiply'])]),
    Spec('scatter_reduce_multiply', lambda T, x, i: x.scatter(1, i, 1.5, reduce='multiply'), [((3, 4), _I1_DUP)],
         grad=False),
    Spec('scatter_add', lambda T, x, d, i, s: T.scatter_add(x, d, i, s),
         [((3, 4), 0, _I0_DUP, (3, 4)), ((3, 4), 1, _I1_DUP, (2, 3)), ((2, 3, 4), 2, np.array([[[0, 0, 3]]]), (1, 1, 3))],
         bad=[Bad(((3, 4), 1, np.array([[4]]), (1, 1)), ['scatter_add', 'index 4', 'size 4']),
              Bad(((3, 4), 0, _I0, np.zeros((2, 4))), ['scatter_add', 'self.dtype', 'float32', 'float64'])]),
    Spec('scatter_add_int', lambda T, x, i, s: x.scatter_add(0, i, s), [((3, 4), _I0_DUP, (3, 4))],
         dtypes=(np.int64,), low=-5, high=5),
]
SPECS += [_reduce_spec(r, inc) for r in ('sum', 'prod', 'mean', 'amax', 'amin') for inc in (True, False)]
SPECS += [
    Spec('scatter_reduce_mean_int', lambda T, x, i, s: x.scatter_reduce(0, i, s, 'mean', include_self=False),
         [((3, 4), _I0_DUP, (3, 4))], dtypes=(np.int64,), low=-5, high=5),
    Spec('scatter_reduce_amax_int', lambda T, x, i, s: x.scatter_reduce(1, i, s, 'amax'),
         [((3, 4), _I1_DUP, (2, 3))], dtypes=(np.int64,), low=-5, high=5),
    # zeros among the values of a product: one at a place (self's or src's), the rest not zero
    Spec('scatter_reduce_prod_zeros', lambda T, x, i, s: x.scatter_reduce(0, i, s, 'prod'),
         [(np.array([[0.0, 1.5, -2.0, 0.5], [1.0, 0.0, 2.0, -1.0], [0.7, 1.2, 1.1, 0.0]]), _I0_DUP,
           np.array([[1.5, -0.5, 0.0, 2.0], [0.8, 1.3, 0.9, -1.1], [0.0, 0.6, 1.4, 1.7]]))],
         dtypes=(np.float64,)),
    Spec('scatter_reduce_bad', lambda T, x, i, s, r: x.scatter_reduce(0, i, s, r), [], grad=False,
         bad=[Bad(((3, 4), _I0, (2, 4), 'max'), ['scatter_reduce', 'sum, prod, mean, amax or amin']),
              Bad(((3, 4), np.array([[0, 5]]), (1, 2), 'sum'), ['scatter_reduce', 'index 5', 'size 3'])]),
]

SPECS += [
    Spec('index_copy', lambda T, x, d, i, s: T.index_copy(x, d, i, s),
         [((3, 4), 0, np.array([2, 0]), (2, 4)), ((3, 4), 1, np.array([3, 1, 0]), (3, 3)),
          ((2, 3, 4), -1, np.array([1]), (2, 3, 1))],
         bad=[Bad(((3, 4), 0, np.array([3]), (1, 4)), ['index_copy_', 'index 3', 'size 3']),
              Bad(((3, 4), 0, np.array([-1]), (1, 4)), ['index_copy_', 'index -1', 'size 3']),
              Bad(((3, 4), 0, np.array([1]), (2, 4)), ['index_copy_', 'Number of indices (1)', '(2)']),
              Bad(((3, 4), 0, np.array([1]), np.zeros((1, 4))), ['index_copy_', 'same dtype', 'float64'])]),
    Spec('index_fill', lambda T, x, d, i: T.index_fill(x, d, i, -1.5),
         [((3, 4), 0, np.array([2, 0])), ((3, 4), 1, np.array([-1, 1])), ((2, 3, 4), 1, np.array(2))],
         bad=[Bad(((3, 4), 0, np.array([-4])), ['index_fill_', 'index -4', 'size 3']),
              Bad(((3, 4), 1, np.array([4])), ['index_fill_', 'index 4', 'size 4']),
              Bad(((3, 4), 0, np.array([[1]])), ['index_fill_', 'vector'])]),
    Spec('index_fill_tensor', lambda T, x, i, v: x.index_fill(1, i, v.reshape(())), [((3, 4), np.array([0, 2]), ())]),
    Spec('index_fill_int', lambda T, x, i: x.index_fill(0, i, 2.7), [((3, 4), np.array([1]))],
         dtypes=(np.int64,), low=-5, high=5),
    # in place (through copy_: the grad_fn is the copy's)
    Spec('scatter_', lambda T, x, i, s: x.clone().scatter_(0, i, s), [((3, 4), _I0, (2, 4))],
         grad_fn_differs='gnn writes in place through copy_ (CopyBackwards)'),
    Spec('scatter_add_', lambda T, x, i, s: x.clone().scatter_add_(1, i, s), [((3, 4), _I1_DUP, (2, 3))],
         grad_fn_differs='gnn writes in place through copy_ (CopyBackwards)'),
    Spec('scatter_reduce_', lambda T, x, i, s: x.clone().scatter_reduce_(0, i, s, 'amax', include_self=False),
         [((3, 4), _I0_DUP, (3, 4))], grad_fn_differs='gnn writes in place through copy_ (CopyBackwards)'),
    Spec('index_copy_', lambda T, x, i, s: x.clone().index_copy_(0, i, s), [((3, 4), np.array([2, 0]), (2, 4))],
         grad_fn_differs='gnn writes in place through copy_ (CopyBackwards)'),
    Spec('index_fill_', lambda T, x, i: x.clone().index_fill_(1, i, 0.5), [((3, 4), np.array([3, 0]))],
         grad_fn_differs='gnn writes in place through copy_ (CopyBackwards)'),
]
