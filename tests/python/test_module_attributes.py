# Plain tensor attributes that a layer's forward reads in place of its parameter (what
# torch.nn.utils.prune does to `weight`), against torch 1.13
#
# SPDX-License-Identifier: LGPL-2.1-or-later
import unittest

import numpy as np
import torch

import gnn


def pair(seed=0):
    torch.manual_seed(seed)
    t = torch.nn.Linear(3, 2)
    m = gnn.nn.Linear(3, 2)
    m.load_state_dict({k: gnn.tensor(v.detach().numpy()) for k, v in t.state_dict().items()})
    return t, m


class TestTensorAttributes(unittest.TestCase):
    def test_forward_reads_a_plain_weight(self):
        t, m = pair()
        w = np.arange(6, dtype=np.float32).reshape(2, 3) / 7
        del t.weight
        del m.weight
        t.weight = torch.tensor(w)
        m.weight = gnn.tensor(w)
        x = np.array([[1.0, -2.0, 0.5], [0.25, 3.0, -1.0]], dtype=np.float32)
        np.testing.assert_allclose(m(gnn.tensor(x)).detach().numpy(),
                                   t(torch.tensor(x)).detach().numpy(), rtol=1e-5, atol=1e-6)
        self.assertEqual(sorted(m.state_dict().keys()), sorted(t.state_dict().keys()))
        self.assertEqual([n for n, _ in m.named_parameters()], [n for n, _ in t.named_parameters()])
        np.testing.assert_array_equal(m.weight.numpy(), w)

    def test_gradient_flows_through_a_computed_weight(self):
        # as pruning does: weight = weight_orig * weight_mask, recomputed before each forward
        t, m = pair(1)
        mask = np.array([[1, 0, 1], [0, 1, 1]], dtype=np.float32)
        for mod, lib, tensor in ((t, torch.nn, torch.tensor), (m, gnn.nn, gnn.tensor)):
            orig = mod.weight
            del mod.weight
            mod.register_parameter('weight_orig', lib.Parameter(orig.detach().clone()))
            mod.register_buffer('weight_mask', tensor(mask))
            mod.weight = mod.weight_orig * mod.weight_mask
        x = np.array([[1.0, -2.0, 0.5]], dtype=np.float32)
        yt = t(torch.tensor(x)).sum()
        ym = m(gnn.tensor(x)).sum()
        yt.backward()
        ym.backward()
        np.testing.assert_allclose(ym.item(), yt.item(), rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(m.weight_orig.grad.numpy(), t.weight_orig.grad.numpy(), rtol=1e-5, atol=1e-6)
        self.assertEqual(sorted(m.state_dict().keys()), sorted(t.state_dict().keys()))

    def test_name_taken_by_a_parameter(self):
        _, m = pair()
        w = gnn.zeros(2, 3)
        # a plain tensor cannot replace a parameter, as in torch
        with self.assertRaises(TypeError):
            m.weight = w
        del m.weight
        m.weight = w
        with self.assertRaises(KeyError):
            m.register_parameter('weight', gnn.nn.Parameter(gnn.zeros(2, 3)))
        del m.weight
        with self.assertRaises(AttributeError):
            m.weight
        m.register_parameter('weight', gnn.nn.Parameter(gnn.zeros(2, 3)))
        self.assertIn('weight', m.state_dict())

    def test_copy_keeps_a_plain_attribute(self):
        import copy
        _, m = pair()
        del m.weight
        m.weight = gnn.ones(2, 3)
        c = copy.deepcopy(m)
        self.assertIsNot(c.weight, m.weight)
        np.testing.assert_array_equal(c.weight.numpy(), np.ones((2, 3), np.float32))


if __name__ == '__main__':
    unittest.main()
