"""Rows for the ops whose double backward (create_graph) the runner's gradgrad check covers
beyond existing.py: the activations with fused backward kernels, softmax, the products and the
convolution; and rows saying which double backwards gnn still lacks."""
import numpy as np

from opspec import Spec

SPECS = [
    Spec('relu', lambda T, x: T.relu(x) * x, [((3, 4),)]),
    Spec('sigmoid', lambda T, x: T.sigmoid(x), [((3, 4),)]),
    Spec('tanh', lambda T, x: T.tanh(x), [((2, 3),)]),
    Spec('gelu', lambda T, x: T.nn.functional.gelu(x), [((2, 3),)]),
    Spec('silu', lambda T, x: T.nn.functional.silu(x), [((2, 3),)]),
    Spec('elu', lambda T, x: T.nn.functional.elu(x, 0.7), [((2, 3),)]),
    Spec('leaky_relu', lambda T, x: T.nn.functional.leaky_relu(x, 0.2) * x, [((2, 3),)]),
    Spec('softmax', lambda T, x: T.softmax(x, 1), [((2, 3),), ((2, 3, 2),)]),
    Spec('log_softmax', lambda T, x: T.log_softmax(x, 0), [((3, 2),)]),
    Spec('linear', lambda T, x, w, b: T.nn.functional.linear(x, w, b), [((3, 2), (4, 2), (4,))],
         tslice=False),
    Spec('matmul', lambda T, a, b: T.matmul(a, b), [((2, 3), (3, 2)), ((2, 2, 3), (2, 3, 2))],
         grad_fn_differs='a 3-d product ends in ViewBackward0 in gnn, UnsafeViewBackward0 in torch'),
    Spec('conv2d', lambda T, x, w: T.nn.functional.conv2d(x, w), [((1, 1, 3, 3), (2, 1, 2, 2))],
         tslice=False, grad_fn_differs='gnn records the convolution as im2col and a batched product'),
    Spec('max_pool2d', lambda T, x: T.nn.functional.max_pool2d(x * x, 2), [((1, 1, 2, 4),)],
         tslice=False, gradgrad='max_pool2d_with_indices_backward has no double backward in gnn'),
]
