"""Rows for the matrix products, einsum and the linear algebra of gnn-ops-linalg.c."""
import numpy as np

from opspec import Bad, P, Spec

SPECS = [
    Spec('bmm', lambda T, a, b: T.bmm(a, b), [((2, 3, 4), (2, 4, 2)), ((1, 2, 3), (1, 3, 1))],
         bad=[Bad(((2, 3, 4), (2, 5, 2)), ['bmm', '[2, 4]', '[2, 5]']),
              Bad(((2, 3, 4), (4, 2)), ['bmm', 'batch2', '3D'])]),
    Spec('baddbmm', lambda T, c, a, b: T.baddbmm(c, a, b, beta=0.5, alpha=-1.5),
         [((2, 3, 2), (2, 3, 4), (2, 4, 2)), ((3, 1), (2, 3, 2), (2, 2, 1))],
         bad=[Bad(((3, 4), (2, 3, 4), (2, 4, 2)), ['baddbmm', '[3, 4]', '[2, 3, 2]'])]),
    Spec('baddbmm_method', lambda T, c, a, b: c.baddbmm(a, b), [((2, 3, 2), (2, 3, 4), (2, 4, 2)), ((1, 2, 1), (1, 2, 3), (1, 3, 1))]),
    Spec('addmm', lambda T, c, a, b: T.addmm(c, a, b, beta=2.0, alpha=0.5),
         [((3, 2), (3, 4), (4, 2)), ((2,), (3, 4), (4, 2)), ((1, 1), (1, 3), (3, 1))],
         bad=[Bad(((2,), (3, 4), (3, 2)), ['addmm', '3x4', '3x2']),
              Bad(((5,), (3, 4), (4, 2)), ['addmm', '[5]', '[3, 2]']),
              Bad(((2,), (3, 4, 1), (4, 2)), ['addmm', 'mat1', '2D', '3D'])]),
    Spec('addmm_beta0', lambda T, c, a, b: T.addmm(c, a, b, beta=0), [((3, 2), (3, 4), (4, 2))]),
    Spec('addbmm', lambda T, c, a, b: T.addbmm(c, a, b, beta=-1.0, alpha=2.0),
         [((3, 2), (2, 3, 4), (2, 4, 2)), ((2,), (3, 2, 2), (3, 2, 2))],
         bad=[Bad(((3, 2), (2, 3, 4), (2, 3, 2)), ['addbmm', '3x4', '3x2'])]),
    Spec('mv', lambda T, a, v: T.mv(a, v), [((3, 4), (4,)), ((1, 2), (2,))],
         bad=[Bad(((3, 4), (5,)), ['mv', '3x4', '5']),
              Bad(((3, 4), (4, 1)), ['mv', 'matrix @ vector'])]),
    Spec('dot', lambda T, a, b: T.dot(a, b), [((4,), (4,)), ((1,), (1,))],
         bad=[Bad(((3,), (4,)), ['dot', '[3]', '[4]']),
              Bad(((3, 1), (3,)), ['dot', '1D', '2D'])]),
    Spec('dot_method', lambda T, a, b: a.dot(b), [((3,), (3,))]),
    Spec('outer', lambda T, a, b: T.outer(a, b), [((3,), (4,)), ((1,), (2,))],
         bad=[Bad(((3, 2), (4,)), ['outer', '1-D', 'self', '2-D'])]),
    Spec('outer_method', lambda T, a, b: a.outer(b), [((2,), (3,))]),
]
