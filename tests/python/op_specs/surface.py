"""Rows for the compositions of the surface part of the overrides (_gnn/surface.py): their
gradients follow from the C ops they are made of, so gnn's grad_fn is the last of those."""
from opspec import Bad, P, Spec

_COMPOSED = 'composed in Python of C ops: the grad_fn is the last of them'

SPECS = [
    Spec('surface_sum_to_size', lambda T, x, s: x.sum_to_size(*s),
         [((3, 4), P((1, 4))), ((3, 4), P((3, 1))), ((2, 3, 4), P((3, 1))), ((2, 3, 4), P((4,))),
          ((2, 3, 4), P((1, 1, 1)))],
         grad_fn_differs=_COMPOSED,
         bad=[Bad(((3, 4), P((5,))), ['is not expandable to size'])]),
    Spec('surface_addmv', lambda T, i, m, v: T.addmv(i, m, v), [((3,), (3, 4), (4,)), ((1,), (3, 4), (4,)),
                                                                ((), (2, 5), (5,))],
         grad_fn_differs=_COMPOSED),
    Spec('surface_addmv_scaled', lambda T, i, m, v: T.addmv(i, m, v, beta=0.5, alpha=-2.0),
         [((3,), (3, 4), (4,))], grad_fn_differs=_COMPOSED),
    Spec('surface_addr', lambda T, i, a, b: T.addr(i, a, b, beta=2.0, alpha=0.5),
         [((3, 4), (3,), (4,)), ((4,), (3,), (4,))], grad_fn_differs=_COMPOSED,
         bad=[Bad(((3, 4), (3, 1), (4,)), ['Expected 1-D argument vec1'])]),
    Spec('surface_vdot', lambda T, a, b: T.vdot(a, b), [((5,), (5,))], grad_fn_differs=_COMPOSED,
         bad=[Bad(((2, 2), (2, 2)), ['1D tensors expected'])]),
    Spec('surface_bilinear', lambda T, a, b, w, c: T.bilinear(a, b, w, c), [((2, 2), (2, 3), (2, 2, 3), (2,)),
                                                                          ((2, 1, 2), (2, 1, 3), (3, 2, 3), (3,))],
         grad_fn_differs=_COMPOSED),
    Spec('surface_rsub', lambda T, a, b: T.rsub(a, b, alpha=2), [((3, 4), (3, 4)), ((3, 4), (4,))],
         grad_fn_differs=_COMPOSED),
    Spec('surface_rsub_number', lambda T, a: T.rsub(a, 1.5, 3), [((3, 4),)], grad_fn_differs=_COMPOSED),
    Spec('surface_combinations', lambda T, a, r, w: T.combinations(a, r, w),
         [((4,), 2, False), ((4,), 3, True), ((3,), 1, False)], grad_fn_differs=_COMPOSED,
         bad=[Bad(((2, 2), 2, False), ['Expect a 1D vector'])]),
    Spec('surface_cumulative_trapezoid', lambda T, y: T.cumulative_trapezoid(y), [((3, 5),), ((6,),)],
         grad_fn_differs=_COMPOSED),
    Spec('surface_cumulative_trapezoid_x', lambda T, y, x: T.cumulative_trapezoid(y, x, dim=0),
         [((4, 3), (4,)), ((4, 3), (4, 3))], grad_fn_differs=_COMPOSED),
    Spec('surface_cumulative_trapezoid_dx', lambda T, y: T.cumulative_trapezoid(y, dx=0.5, dim=1),
         [((2, 4),)], grad_fn_differs=_COMPOSED),
    Spec('surface_chain_matmul', lambda T, a, b, c: T.chain_matmul(a, b, c), [((2, 3), (3, 4), (4, 2))],
         grad_fn_differs=_COMPOSED),
    Spec('surface_fill', lambda T, a: T.fill(a, 1.25), [((3, 4),)], grad_fn_differs=_COMPOSED),
    Spec('surface_clamp_min_max', lambda T, a: (T.clamp_min(a, -0.5), T.clamp_max(a, 0.5)), [((3, 4),)],
         grad_fn_differs=_COMPOSED),
    Spec('surface_views_as', lambda T, a: (a.view_as(T.zeros(4, 3)), a.reshape_as(T.zeros(2, 6)), a.ravel(),
                                           a.t().ravel(), a.adjoint(), a.mH, a.H),
         [((3, 4),)], grad_fn_differs=_COMPOSED, tslice=False),   # (view_as needs a contiguous input)
    Spec('surface_type_as', lambda T, a: a.type_as(T.zeros(2, dtype=T.float64)), [((3, 4),)],
         grad_fn_differs=_COMPOSED),
]
