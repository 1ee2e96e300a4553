"""Rows for the integer dtypes (int32, int16, int8 beside int64): arithmetic that wraps as
torch's does (inputs drawn over int8's whole range, so int8 sums and products overflow),
promotion with uint8 and with Python scalars, comparisons, where, the unary ops, clamp,
reductions (sums into int64) and indexing with int32 indices where torch 1.13 takes them."""
import numpy as np

from opspec import Bad, P, Spec

INTS = (np.int32, np.int16, np.int8, np.int64)
WIDE = dict(dtypes=INTS, low=-128, high=127, grad=False)
SMALL = dict(dtypes=INTS, low=-9, high=9, grad=False)
U8 = np.array([0, 7, 200, 255], dtype=np.uint8)
I32_INDEX = np.array([2, 0, 2], dtype=np.int32)

SPECS = [
    Spec('int_add', lambda T, a, b: a + b, [((3, 4), (4,)), ((2, 1, 3), (1, 2, 1))], **WIDE),
    Spec('int_sub', lambda T, a, b: T.sub(a, b), [((3, 4), (3, 4))], **WIDE),
    Spec('int_mul', lambda T, a, b: a * b, [((3, 4), (4,))], **WIDE),
    Spec('int_div', lambda T, a, b: a / b, [((3, 4), (4,))], dtypes=INTS, low=1, high=9, grad=False),
    Spec('int_scalars', lambda T, a: (a + 3, a * 2, a - 1.5, a * 2.0, 2.5 * a), [((3, 4),)], **WIDE),
    Spec('int_with_uint8', lambda T, a, u: (a + u, u * a), [((3, 4), U8)], **WIDE),
    Spec('int_compare', lambda T, a, b: (a == b, a < b, a >= b, a != 0), [((3, 4), (4,))], **SMALL),
    Spec('int_where', lambda T, a, b: T.where(a > 0, a, b), [((3, 4), (4,))], **SMALL),
    Spec('int_unary', lambda T, a: (-a, a.abs(), a.sign()), [((3, 4),)], **WIDE),
    Spec('int_clamp', lambda T, a: (a.clamp(-3, 4), a.clamp(min=0)), [((3, 4),)], **SMALL),
    Spec('int_maximum', lambda T, a, b: (T.maximum(a, b), T.minimum(a, b)), [((3, 4), (4,))], **SMALL),
    Spec('int_sum', lambda T, a: (a.sum(), a.sum(1), a.sum(0, keepdim=True)), [((3, 4),), ((2, 3, 2),)],
         **WIDE),
    Spec('int_max', lambda T, a: (a.max(), a.min(), a.argmax(), a.max(1)[0], a.max(1)[1]), [((3, 4),)],
         **SMALL),
    Spec('int_index_select', lambda T, a, i: a.index_select(0, i), [((3, 4), I32_INDEX)], **SMALL,
         bad=[Bad(((3, 4), np.array([0.0])), ['index_select', 'int32 or int64'], dtype=np.int32)]),
    Spec('int_gather', lambda T, a, i: a.gather(0, i), [((3, 4), np.array([[2, 0, 1, 1]]))], **SMALL,
         bad=[Bad(((3, 4), np.array([[0, 1, 2, 0]], dtype=np.int32)), ['gather', 'int64'],
                  dtype=np.int32)]),
    Spec('int_one_hot', lambda T, a: T.nn.functional.one_hot(a, 10), [(np.array([1, 9, 0]),)],
         dtypes=(np.int64,), grad=False,
         bad=[Bad((np.array([1, 2], dtype=np.int32),), ['one_hot', 'index tensor'])]),
]
