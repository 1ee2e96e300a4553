"""In-place ops on views of tensors that require grad (PyTorch's CopySlices), against torch."""
import numpy as np
import torch

from gnntest import Gnn, GLib, ParityTest, main, rand, to_gnn, to_np


class InplaceViewTest(ParityTest):
    def run_both(self, gnn_fn, torch_fn, arrays, grads_for):
        tl = [torch.from_numpy(a.copy()).requires_grad_() for a in arrays]
        gl = [to_gnn(a, True) for a in arrays]
        lt = torch_fn(*tl)
        lg = gnn_fn(*gl)
        self.assert_close(to_np(lg), lt.detach().numpy(), 1e-5, 1e-6, 'loss')
        lt.backward()
        lg.backward(None, False)
        for k in grads_for:
            self.assert_close(to_np(gl[k].get_grad()), tl[k].grad.numpy(), 1e-5, 1e-6, 'grad %d' % k)

    def test_mul_into_row(self):
        x = rand((3, 4), np.float32, seed=1)
        w = rand((4,), np.float32, seed=2)

        def g(x, w):
            y = x.mul_scalar(2.0)
            y.select(0, 1).mul_(w)
            self.assertEqual(y.get_grad_fn_name(), 'CopySlices')
            return y.mul(y).sum_all()

        def t(x, w):
            y = x * 2
            y[1].mul_(w)
            return (y * y).sum()
        self.run_both(g, t, [x, w], [0, 1])

    def test_view_used_after(self):
        x = rand((4, 3), np.float64, seed=3)
        w = rand((4, 1), np.float64, seed=4)

        def g(x, w):
            y = x.add_scalar(1.0)
            v = y.narrow(1, 0, 1)
            v.add_(w, 3.0)
            return v.mul(v).sum_all().add(y.sum_all(), 1.0)

        def t(x, w):
            y = x + 1
            v = y.narrow(1, 0, 1)
            v.add_(w, alpha=3.0)
            return (v * v).sum() + y.sum()
        self.run_both(g, t, [x, w], [0, 1])

    def test_copy_into_base_without_grad(self):
        w = rand((3,), np.float32, seed=5)

        def g(w):
            b = Gnn.Tensor.new_zeros([3, 2], Gnn.Dtype.FLOAT32, None)
            b.select(1, 0).copy_(w)
            return b.mul(b).sum_all()

        def t(w):
            b = torch.zeros(3, 2)
            b[:, 0].copy_(w)
            return (b * b).sum()
        self.run_both(g, t, [w], [0])

    def test_leaf_view_refused(self):
        x = to_gnn(rand((3,), np.float32), True)
        with self.assertRaises(GLib.Error) as cm:
            x.narrow(0, 0, 2).mul_scalar_(2.0)
        self.assertIn('view of a leaf Variable', cm.exception.message)


if __name__ == '__main__':
    main()
