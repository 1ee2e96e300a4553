"""Rows for ops gnn had before the table, so that the runner itself is exercised on ops whose
parity the older tests check too."""
import numpy as np

from opspec import Bad, P, Spec

SPECS = [
    Spec('narrow', lambda T, x, s=1: x.narrow(1, s, 2), [((3, 4),), ((2, 5, 3),)],
         bad=[Bad(((3, 4), 3), ['start', '4'])]),
    Spec('amax', lambda T, x: T.amax(x, (0, 1)), [((3, 4),), ((2, 3, 2),)]),
    Spec('hypot', lambda T, a, b: T.hypot(a, b), [((3, 4), (4,)), ((2, 1, 3), (1, 2, 1))]),
    Spec('transpose', lambda T, x: x.transpose(0, 1), [((3, 4),), ((2, 3, 4),)]),
]
