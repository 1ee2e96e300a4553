"""Rows for the spatial ops of torch.nn.functional that run the 2-d kernels on a unit height:
conv_transpose1d, max_pool1d, avg_pool1d, adaptive_avg_pool1d; lp_pool1d / lp_pool2d (composed
as torch composes them) and dropout1d where it is deterministic. The layers are checked in
test_spatial.py."""
from opspec import Bad, Spec


def _f(T, name):
    return getattr(T.nn.functional, name)


_SQUEEZED = 'gnn runs the 2-d form on a unit height; its last node is the squeeze (SqueezeBackward1)'
_POOL_NO_GRADGRAD = 'the pooling backward kernels have no double backward in gnn'

SPECS = [
    Spec('conv_transpose1d', lambda T, x, w, b: _f(T, 'conv_transpose1d')(x, w, b),
         [((2, 3, 4), (3, 2, 3), (2,)), ((3, 5), (3, 2, 2), (2,))], grad_fn_differs=_SQUEEZED,
         bad=[Bad(((2, 4, 4), (3, 2, 3), (2,)), ['conv_transpose1d', 'C = 3 channels', '[2, 4, 4]']),
              Bad(((2, 3, 4), (3, 2, 3, 1), (2,)), ['conv_transpose1d', '3-d weight', '[3, 2, 3, 1]'])]),
    Spec('conv_transpose1d_args',
         lambda T, x, w: _f(T, 'conv_transpose1d')(x, w, None, stride=2, padding=1, output_padding=1, groups=2,
                                                   dilation=1),
         [((1, 4, 3), (4, 1, 3))], grad_fn_differs=_SQUEEZED),
    Spec('conv_transpose1d_dilated', lambda T, x, w: _f(T, 'conv_transpose1d')(x, w, dilation=2, stride=(3,)),
         [((2, 2, 3), (2, 3, 2))], grad_fn_differs=_SQUEEZED),
    Spec('max_pool1d', lambda T, x: _f(T, 'max_pool1d')(x, 2), [((2, 3, 6),), ((3, 5),)],
         gradgrad=_POOL_NO_GRADGRAD,
         bad=[Bad(((1, 2, 3, 4),), ['max_pool1d', '2-d (C, L) or 3-d (N, C, L)', '[1, 2, 3, 4]'])]),
    Spec('max_pool1d_indices',
         lambda T, x, p: _f(T, 'max_pool1d')(x, 3, stride=2, padding=p, dilation=2, ceil_mode=True,
                                            return_indices=True),
         [((2, 2, 7), 1), ((2, 6), 0)], gradgrad=_POOL_NO_GRADGRAD,
         bad=[Bad(((2, 2, 7), 2), ['max_pool1d', 'at most half of kernel size', '2 and kernel_size=3'])]),
    Spec('avg_pool1d', lambda T, x, p: _f(T, 'avg_pool1d')(x, 3, stride=2, padding=p), [((2, 3, 7), 1), ((2, 5), 0)],
         gradgrad=_POOL_NO_GRADGRAD,
         bad=[Bad(((2, 3, 7), 2), ['avg_pool1d', 'pad should be at most half of kernel size', 'pad=2',
                                   'kernel_size=3'])]),
    Spec('avg_pool1d_no_pad_count', lambda T, x: _f(T, 'avg_pool1d')(x, (3,), 1, 1, True, False), [((1, 2, 5),)],
         gradgrad=_POOL_NO_GRADGRAD),
    Spec('adaptive_avg_pool1d', lambda T, x: _f(T, 'adaptive_avg_pool1d')(x, 3), [((2, 3, 7),), ((2, 4),)],
         gradgrad=_POOL_NO_GRADGRAD,
         bad=[Bad(((1, 2, 3, 4),), ['adaptive_avg_pool1d', '[1, 2, 3, 4]'])]),
    # positive inputs: x^p and the root are real for every p
    Spec('lp_pool1d', lambda T, x: _f(T, 'lp_pool1d')(x, 2, 3, stride=2, ceil_mode=True), [((2, 2, 7),), ((2, 6),)],
         low=0.2, high=2.0, gradgrad=_POOL_NO_GRADGRAD,
         bad=[Bad(((1, 2, 3, 4),), ['lp_pool1d', '[1, 2, 3, 4]'])]),
    Spec('lp_pool1d_p3', lambda T, x: _f(T, 'lp_pool1d')(x, 3.0, 2), [((1, 3, 6),)], low=0.2, high=2.0,
         gradgrad=_POOL_NO_GRADGRAD),
    Spec('lp_pool2d', lambda T, x: _f(T, 'lp_pool2d')(x, 2, (2, 3), stride=(1, 2)), [((1, 2, 4, 5),), ((2, 3, 4),)],
         low=0.2, high=2.0, gradgrad=_POOL_NO_GRADGRAD,
         bad=[Bad(((1, 1, 2, 3, 4),), ['lp_pool2d', '[1, 1, 2, 3, 4]'])]),
    Spec('lp_pool2d_square', lambda T, x: _f(T, 'lp_pool2d')(x, 1.5, 2), [((1, 1, 4, 4),)], low=0.2, high=2.0,
         gradgrad=_POOL_NO_GRADGRAD),
    Spec('dropout1d_eval_p0_p1', lambda T, x: (_f(T, 'dropout1d')(x, 0.4, training=False) * 2,
                                             _f(T, 'dropout1d')(x, 0.0) + x, _f(T, 'dropout1d')(x, 1.0)),
         [((2, 3, 4),), ((3, 4),)],
         bad=[Bad(((2, 3, 4, 5),), ['dropout1d', 'Expected 2D or 3D input', '4D'])]),
]
