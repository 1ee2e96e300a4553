"""Rows for the functional forms of the layers (torch.nn.functional): the norms, dropout
(where it is deterministic: p of 0 or 1, or not training) and embedding. Dropout's random
masks and the running statistics the norms update are checked in test_functional_nn.py."""
import numpy as np

from opspec import Bad, P, Spec

_IDX = np.array([[0, 3, 1], [3, 2, 0]])

_COMPOSED = 'gnn composes it from elementwise ops and reductions (its last node is the affine add)'
_LOOKUP = 'gnn looks the rows up with index_select and reshapes them (ReshapeAliasBackward0)'
# the padding row passes no gradient, which finite differences of the output cannot see
_FUSED_NO_GRADGRAD = 'the fused batch norm kernels have no double backward (NOT_SUPPORTED under create_graph)'


def _stats(T, x, values):
    return T.tensor(values, dtype=x.dtype)


def _bn_eval(T, x, w, b):
    rm = _stats(T, x, [0.1, -0.2, 0.3])
    rv = _stats(T, x, [1.5, 0.5, 2.0])
    return T.nn.functional.batch_norm(x, rm, rv, w, b, False, 0.1, 1e-5)


def _in_eval(T, x):
    rm = _stats(T, x, [0.1, -0.2])
    rv = _stats(T, x, [1.5, 0.5])
    return T.nn.functional.instance_norm(x, rm, rv, use_input_stats=False)


SPECS = [
    Spec('batch_norm_train', lambda T, x, w, b: T.nn.functional.batch_norm(x, None, None, w, b, True),
         [((4, 3), (3,), (3,)), ((2, 3, 4), (3,), (3,))], gradgrad=_FUSED_NO_GRADGRAD,
         bad=[Bad(((1, 3), (3,), (3,)), ['batch_norm', 'more than 1 value per channel', '[1, 3]']),
              Bad(((4, 3), (2,), (3,)), ['batch_norm', 'weight', '3', '2'])]),
    Spec('batch_norm_train_no_affine', lambda T, x: T.nn.functional.batch_norm(x, None, None, training=True),
         [((3, 2, 2, 2),)], gradgrad=_FUSED_NO_GRADGRAD),
    Spec('batch_norm_eval', _bn_eval, [((4, 3), (3,), (3,)), ((2, 3, 2), (3,), (3,))],
         grad_fn_differs=_COMPOSED),
    Spec('instance_norm', lambda T, x, w, b: T.nn.functional.instance_norm(x, weight=w, bias=b),
         [((2, 3, 4), (3,), (3,)), ((1, 2, 2, 3), (2,), (2,))], gradgrad=_FUSED_NO_GRADGRAD,
         grad_fn_differs='the last node is a reshape: ReshapeAliasBackward0 in gnn, ViewBackward0 in torch',
         bad=[Bad(((2, 3, 1), (3,), (3,)), ['instance_norm', 'more than 1 spatial element', '[2, 3, 1]'])]),
    Spec('instance_norm_eval', _in_eval, [((2, 2, 3),)], grad_fn_differs=_COMPOSED),
    Spec('layer_norm', lambda T, x, w, b: T.nn.functional.layer_norm(x, P((4,)).value, w, b),
         [((3, 4), (4,), (4,)), ((2, 3, 4), (4,), (4,))], grad_fn_differs=_COMPOSED,
         bad=[Bad(((3, 5), (4,), (4,)), ['layer_norm', 'normalized_shape=[4]', '[3, 5]'])]),
    Spec('layer_norm_2d', lambda T, x: T.nn.functional.layer_norm(x, (3, 4), eps=1e-3),
         [((2, 3, 4),)], grad_fn_differs=_COMPOSED),
    Spec('group_norm', lambda T, x, g, w, b: T.nn.functional.group_norm(x, g, w, b),
         [((2, 4, 3), 2, (4,), (4,)), ((3, 4), 1, (4,), (4,)), ((1, 4, 2, 2), 2, (4,), (4,))],
         grad_fn_differs=_COMPOSED,
         bad=[Bad(((2, 3, 2), 2, (3,), (3,)), ['group_norm', 'divisible by num_groups', '[2, 3, 2]'])]),
    Spec('dropout_eval', lambda T, x, p: T.nn.functional.dropout(x, p, training=False) * 2, [((3, 4), 0.4)],
         bad=[Bad(((3, 4), 1.5), ['dropout probability', '1.5'])]),
    Spec('dropout_p0_p1', lambda T, x: (T.nn.functional.dropout(x, 0.0) * 2, T.nn.functional.dropout(x, 1.0)),
         [((3, 4),)]),
    Spec('dropout2d_eval', lambda T, x: T.nn.functional.dropout2d(x, 0.5, training=False) + x, [((2, 3, 4),)]),
    Spec('embedding', lambda T, i, w: T.nn.functional.embedding(i, w), [(_IDX, (4, 3))], tslice=False,
         grad_fn_differs=_LOOKUP),
    Spec('embedding_padding', lambda T, i, w: T.nn.functional.embedding(i, w, padding_idx=-1), [(_IDX, (4, 3))],
         tslice=False, grad_fn_differs=_LOOKUP, gradcheck=False),
]
