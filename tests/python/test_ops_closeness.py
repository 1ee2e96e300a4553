# torch.isclose / allclose / equal and their Tensor methods, against torch 1.13
#
# SPDX-License-Identifier: LGPL-2.1-or-later
import unittest

import numpy as np
import torch

import gnn

INF, NAN = float('inf'), float('nan')


def both(values, dtype=np.float32):
    a = np.array(values, dtype=dtype)
    return gnn.tensor(a), torch.tensor(a)


class TestCloseness(unittest.TestCase):
    def test_isclose_matches_torch(self):
        pairs = [
            ([INF, -INF, NAN, 1.0, 1.0, 100.0, 0.0, -0.0], [INF, INF, NAN, INF, 1.0 + 1e-6, 100.001, 1e-9, 0.0]),
            ([[1.0, 2.0], [3.0, 4.0]], [1.0, 2.00002]),
            ([1e-8, -1e-8, 5.0], [0.0, 0.0, 5.00004]),
        ]
        for dtype in (np.float32, np.float64):
            for x, y in pairs:
                (ga, ta), (gb, tb) = both(x, dtype), both(y, dtype)
                for kw in ({}, dict(equal_nan=True), dict(rtol=0.0, atol=0.0), dict(rtol=1e-3, atol=1e-2),
                           dict(rtol=0.0, atol=1e-7)):
                    want = torch.isclose(ta, tb, **kw)
                    got = gnn.isclose(ga, gb, **kw)
                    self.assertEqual(got.dtype, gnn.bool)
                    np.testing.assert_array_equal(got.numpy(), want.numpy(), err_msg=str((x, y, kw)))
                    np.testing.assert_array_equal(ga.isclose(gb, **kw).numpy(), want.numpy())
                    self.assertEqual(gnn.allclose(ga, gb, **kw), torch.allclose(ta, tb, **kw))
                    self.assertEqual(ga.allclose(gb, **kw), ta.allclose(tb, **kw))

    def test_integers(self):
        for dtype in (np.int64, np.int32, np.uint8):
            (ga, ta), (gb, tb) = both([1, 2, 3, 200], dtype), both([1, 3, 3, 199], dtype)
            for kw in ({}, dict(rtol=0.4, atol=0.0), dict(rtol=0.0, atol=1.0), dict(rtol=0.0, atol=0.5)):
                np.testing.assert_array_equal(gnn.isclose(ga, gb, **kw).numpy(), torch.isclose(ta, tb, **kw).numpy(),
                                              err_msg=str((dtype, kw)))
        (ga, ta), (gb, tb) = both([True, False], np.bool_), both([True, True], np.bool_)
        np.testing.assert_array_equal(gnn.isclose(ga, gb).numpy(), torch.isclose(ta, tb).numpy())

    def test_errors(self):
        gi, _ = both([1, 2], np.int64)
        gf, _ = both([1, 2], np.float32)
        with self.assertRaises(RuntimeError):
            gnn.isclose(gi, gf)
        for kw in (dict(rtol=-1.0), dict(atol=-1.0)):
            with self.assertRaises(ValueError) as cm:
                gnn.isclose(gf, gf, **kw)
            self.assertIn('must be greater than or equal to zero', str(cm.exception))
        g3, _ = both([1.0, 2.0, 3.0])
        with self.assertRaises(RuntimeError):
            gnn.allclose(gf, g3)
        with self.assertRaises(TypeError):
            gnn.isclose(gf, 1.0)

    def test_equal(self):
        cases = [([1, 2], np.int64, [1.0, 2.0], np.float32), ([1.0, 2.0], np.float32, [[1.0, 2.0]], np.float32),
                 ([NAN], np.float32, [NAN], np.float32), ([1.0, 2.0], np.float64, [1.0, 2.5], np.float64),
                 ([], np.float32, [], np.float32)]
        for x, dx, y, dy in cases:
            (ga, ta), (gb, tb) = both(x, dx), both(y, dy)
            self.assertEqual(gnn.equal(ga, gb), torch.equal(ta, tb), str((x, y)))
            self.assertEqual(ga.equal(gb), ta.equal(tb))
            self.assertIsInstance(gnn.equal(ga, gb), bool)


if __name__ == '__main__':
    unittest.main()
