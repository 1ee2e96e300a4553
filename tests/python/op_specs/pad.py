"""Rows for torch.nn.functional.pad: constant (with a value, any number of pad pairs, negative
pads cropping), reflect, replicate and circular (1, 2 and 3 padded dimensions, batched and not)."""
import numpy as np

from opspec import Bad, P, Spec


def _pad(mode):
    return lambda T, x, p, v=None: T.nn.functional.pad(x, p, mode=mode, value=v)


_CIRCULAR = 'torch 1.13 pads circularly by slice copies (CopySlices); gnn by one index per dimension'

SPECS = [
    Spec('pad_constant', lambda T, x, p=(1, 2), v=0.0: T.nn.functional.pad(x, p, value=v),
         [((3, 4),), ((2, 3, 4), P((1, 0, -1, 2))), ((2, 3), P([0, 1, 2, 0]), -1.5), ((4,), P((-1, -2)), 2.0),
          ((2, 3, 2), P((1, 1, 1, 0, 0, 1)), 0.5), ((2, 3, 4), P((-2, -2))), ((2, 3, 4), P((-4, 1)))],
         bad=[Bad(((2, 3), P((1,))), ['pad', 'divisible by 2']),
              Bad(((2, 3), P((1, 1) * 3)), ['pad', 'Padding length too large']),
              Bad(((2, 3), P((-3, -1))), ['pad', 'crops', 'size 3'])]),
    Spec('pad_constant_int', lambda T, x: T.nn.functional.pad(x, (2, 1), value=2.7), [((3, 4),)],
         dtypes=(np.int64,), low=-5, high=5),
    Spec('pad_reflect', _pad('reflect'),
         [((2, 3, 4), P((1, 2))), ((3, 4), P((2, 0))), ((1, 2, 3, 4), P((1, 2, 2, 0))), ((2, 3, 4), P((1, 1, 2, 1))),
          ((1, 1, 2, 3, 3), P((1, 1, 1, 0, 1, 1))), ((2, 3, 4), P((-1, 2))), ((2, 3, 4), P((-3, 3)), 0.0)],
         bad=[Bad(((2, 3, 4), P((4, 0))), ['pad', 'Padding size should be less', '(4, 0)', '[2, 3, 4]']),
              Bad(((3,), P((1, 1))), ['pad', 'Only 2D, 3D, 4D, 5D padding']),
              Bad(((2, 3, 4), P((1, 1)), 1.0), ['pad', 'doesn\'t take in value']),
              Bad(((2, 3, 4), P((-2, -2))), ['pad', 'too small'])]),
    Spec('pad_replicate', _pad('replicate'),
         [((2, 3, 4), P((1, 3))), ((3, 4), P((5, 0))), ((1, 2, 3, 4), P((1, 2, 2, 0))), ((2, 3, 4), P((2, 1, 0, 3))),
          ((1, 1, 2, 3, 3), P((1, 1, 1, 0, 2, 2))), ((2, 3, 4), P((3, -2))), ((2, 3, 4), P((-3, 1)))],
         bad=[Bad(((1, 1, 2, 2, 2), P((1, 1, 1, 1, 1, 1, 1, 1))), ['pad', 'Only 2D, 3D, 4D, 5D padding']),
              Bad(((2, 0, 3), P((1, 1))), ['pad', 'non-zero dimensions', '[2, 0, 3]'])]),
    Spec('pad_circular', _pad('circular'),
         [((2, 3, 4), P((1, 2))), ((2, 3, 4), P((4, 0))), ((1, 2, 3, 4), P((1, 2, 3, 0))),
          ((1, 1, 2, 3, 3), P((1, 1, 1, 0, 2, 2))), ((2, 3, 4), P((-1, 2))), ((2, 3, 4), P((2, -1)))],
         grad_fn_differs=_CIRCULAR,
         bad=[Bad(((3, 4), P((1, 1))), ['pad', 'Invalid padding size', 'expected 0 but got 2']),
              Bad(((2, 3, 4), P((5, 0))), ['pad', 'wrapping around more than once'])]),
    Spec('pad_bad_mode', _pad('wrap'), [], grad=False,
         bad=[Bad(((2, 3, 4), P((1, 1))), ['pad', 'Unrecognised padding mode wrap'])]),
]

# flip and roll: the same index mechanism with a permutation per dimension
SPECS += [
    Spec('flip', lambda T, x, d=(0,): T.flip(x, d),
         [((3, 4),), ((2, 3, 4), P((0, 2))), ((2, 3, 4), P([-1])), ((4,), P((0,))), ((2, 3), P(()))],
         bad=[Bad(((3, 4), P((0, 0))), ['flip', 'dim 0 appears multiple times']),
              Bad(((3, 4), P((2,))), ['Dimension out of range'])]),
    Spec('Tensor_flip', lambda T, x: x.flip(1, 0), [((3, 4),)]),
    Spec('flip_int', lambda T, x: T.flip(x, (1,)), [((3, 4),)], dtypes=(np.int64, np.bool_), low=-5, high=5),
    Spec('fliplr', lambda T, x: T.fliplr(x), [((3, 4),), ((2, 3, 2),)], bad=[Bad(((3,),), ['Input must be >= 2-d'])]),
    Spec('flipud', lambda T, x: x.flipud(), [((3, 4),), ((4,),)]),
    Spec('roll', lambda T, x, s=1, d=0: T.roll(x, s, d),
         [((3, 4),), ((3, 4), -2, 1), ((2, 3, 4), P((1, 5)), P((2, 0))), ((2, 3, 4), 7, -1), ((0, 3), 1, 0)],
         bad=[Bad(((3, 4), P((1, 2)), 0), ['roll', 'shifts and dimensions must align'])]),
    Spec('roll_repeated_dim', lambda T, x: T.roll(x, (1, 2), (0, 0)), [((3, 4),)]),
    Spec('roll_flat', lambda T, x, s=2: x.roll(s), [((3, 4),), ((2, 3, 2), -5), ((5,), 12)],
         bad=[Bad(((3, 4), P((1, 2))), ['roll', 'shifts and dimensions must align'])]),
    Spec('roll_int', lambda T, x: T.roll(x, (1, -1), (0, 1)), [((3, 4),)], dtypes=(np.int64,), low=-5, high=5),
]
