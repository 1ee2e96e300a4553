"""Rows for scaled dot-product attention (torch.nn.functional.scaled_dot_product_attention of
PyTorch 2). torch 1.13 has no such function: torch's side of each row is the composed formula
softmax(q @ k.T * scale + mask) @ v that PyTorch 2 documents, with its mask conventions (a bool
mask is True where the query attends the key, is_causal the lower triangle of an (L, S) matrix of
ones). Masks are built inside the rows (no gradient), so that gnn runs its fused kernels; a float
mask given as an input requires grad and takes gnn's composed path."""
import math

import numpy as np

from opspec import Bad, P, Spec

_FUSED = ('gnn runs one fused kernel (ScaledDotProductAttentionBackward0); torch 1.13 composes the '
          'formula from matmul and softmax')
_FUSED_NO_GRADGRAD = 'the fused attention backward has no double backward (NOT_SUPPORTED under create_graph)'
_COMPOSED = 'with a float mask that requires grad gnn composes the formula as torch does, from its own ops'

_BOOL_MASK = np.array([[True, False, True, True, False],
                       [False, True, True, False, True],
                       [True, True, False, False, False],
                       [False, False, False, False, True]])
_FLOAT_MASK = np.array([[0.5, -1.0, 0.0, 2.0, -0.25],
                        [1.0, 0.0, -2.0, 0.5, 0.0],
                        [-0.5, 0.25, 1.5, 0.0, -1.0],
                        [0.0, 0.75, -0.5, -1.5, 1.0]])


def _torch_sdpa(T, q, k, v, attn_mask=None, is_causal=False, scale=None):
    """PyTorch 2's documented reference formula, in torch 1.13's ops"""
    L, S = q.shape[-2], k.shape[-2]
    s = q @ k.transpose(-2, -1) * (scale if scale is not None else 1 / math.sqrt(q.shape[-1]))
    if is_causal:
        s = s.masked_fill(~T.ones(L, S, dtype=T.bool).tril(), float('-inf'))
    if attn_mask is not None:
        s = s.masked_fill(~attn_mask, float('-inf')) if attn_mask.dtype == T.bool else s + attn_mask
    return T.softmax(s, -1) @ v


def _gnn_sdpa(T, q, k, v, attn_mask=None, is_causal=False, scale=None):
    return T.nn.functional.scaled_dot_product_attention(q, k, v, attn_mask, is_causal=is_causal, scale=scale)


def _row(fn_of):
    """(torch fn, gnn fn) of one way of calling the op"""
    return (lambda T, *a: fn_of(T, _torch_sdpa, *a)), (lambda T, *a: fn_of(T, _gnn_sdpa, *a))


def _plain(T, f, q, k, v):
    return f(T, q, k, v)


def _scaled(T, f, q, k, v):
    return f(T, q, k, v, scale=0.3)


def _causal(T, f, q, k, v):
    return f(T, q, k, v, is_causal=True)


def _bool_mask(T, f, q, k, v):
    return f(T, q, k, v, attn_mask=T.tensor(_BOOL_MASK))


def _float_mask(T, f, q, k, v):
    return f(T, q, k, v, attn_mask=T.tensor(_FLOAT_MASK).to(q.dtype))


def _given_mask(T, f, q, k, v, m):
    return f(T, q, k, v, attn_mask=m)


def _spec(name, fn_of, cases, **kw):
    tfn, gfn = _row(fn_of)
    kw.setdefault('grad_fn_differs', _FUSED)
    kw.setdefault('gradgrad', _FUSED_NO_GRADGRAD)
    return Spec(name, tfn, cases, gnn_fn=gfn, **kw)


SPECS = [
    _spec('sdpa', _plain, [((3, 2), (4, 2), (4, 3)), ((2, 2, 3), (2, 3, 3), (2, 3, 2))],
          bad=[Bad(((2, 4, 3), (2, 5, 2), (2, 5, 2)), ['scaled_dot_product_attention', 'embedding size E']),
               Bad(((2, 4, 3), (2, 5, 3), (2, 6, 2)), ['scaled_dot_product_attention', 'sequence length S'])]),
    _spec('sdpa_scale', _scaled, [((3, 2), (4, 2), (4, 2)), ((2, 4, 3), (2, 5, 3), (2, 5, 2))]),
    _spec('sdpa_causal', _causal, [((4, 2), (4, 2), (4, 3)), ((2, 1, 3, 2), (2, 1, 5, 2), (2, 1, 5, 2))]),
    _spec('sdpa_bool_mask', _bool_mask, [((4, 2), (5, 2), (5, 3)), ((2, 4, 3), (2, 5, 3), (2, 5, 2))]),
    _spec('sdpa_float_mask', _float_mask, [((4, 2), (5, 2), (5, 2)), ((2, 4, 3), (2, 5, 3), (2, 5, 2))]),
    _spec('sdpa_float_mask_grad', _given_mask, [((3, 2), (4, 2), (4, 2), (3, 4)), ((2, 3, 2), (2, 4, 2), (2, 4, 2), (3, 4))],
          grad_fn_differs=_COMPOSED, gradgrad=True),
]
