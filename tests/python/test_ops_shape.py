"""Views and shape ops against PyTorch: values, strides, view-ness and gradients."""
import numpy as np
import torch

from gnntest import Gnn, GLib, Input, ParityTest, main, rand, to_gnn, to_np


class ShapeParity(ParityTest):
    def check_view(self, gf, tf, array, name, kind='plain'):
        got = self.check_op(gf, tf, [Input(array, kind)], name=name)
        # the same strides as PyTorch's view of the same input
        _, tv = Input(array, kind).make_torch()
        want = tf(tv)
        if want._base is not None or want.data_ptr() == tv.data_ptr():
            self.assertEqual(tuple(got.get_strides()), want.stride(), name + ' strides')
        return got

    def test_views(self):
        a = rand((2, 3, 4), np.float32, seed=1)
        cases = {
            'view': (lambda t: t.view([6, 4]), lambda t: t.view(6, 4)),
            'view_infer': (lambda t: t.view([-1, 2]), lambda t: t.view(-1, 2)),
            'reshape': (lambda t: t.reshape([4, -1]), lambda t: t.reshape(4, -1)),
            'transpose': (lambda t: t.transpose(0, 2), lambda t: t.transpose(0, 2)),
            'permute': (lambda t: t.permute([2, 0, 1]), lambda t: t.permute(2, 0, 1)),
            'narrow': (lambda t: t.narrow(1, 1, 2), lambda t: t.narrow(1, 1, 2)),
            'select': (lambda t: t.select(2, -1), lambda t: t.select(2, -1)),
            'slice': (lambda t: t.slice(2, 0, 4, 2), lambda t: t[:, :, 0:4:2]),
            'unsqueeze': (lambda t: t.unsqueeze(1), lambda t: t.unsqueeze(1)),
            'unsqueeze_end': (lambda t: t.unsqueeze(-1), lambda t: t.unsqueeze(-1)),
            'flatten': (lambda t: t.flatten(1, -1), lambda t: t.flatten(1, -1)),
            'flatten_all': (lambda t: t.flatten(0, -1), lambda t: t.flatten()),
            'contiguous': (lambda t: t.contiguous(), lambda t: t.contiguous()),
            'clone': (lambda t: t.clone(), lambda t: t.clone()),
        }
        for dt in (np.float32, np.float64):
            for name, (gf, tf) in cases.items():
                with self.subTest(op=name, dtype=dt.__name__):
                    self.check_view(gf, tf, a.astype(dt), name)

    def test_views_of_strided_input(self):
        """Views of a transposed slice: reshape must copy where view cannot."""
        a = rand((4, 5), np.float32, seed=2)
        cases = {
            'reshape': (lambda t: t.reshape([20]), lambda t: t.reshape(20)),
            't': (lambda t: t.t(), lambda t: t.t()),
            'narrow': (lambda t: t.narrow(0, 1, 3), lambda t: t.narrow(0, 1, 3)),
            'expand': (lambda t: t.unsqueeze(0).expand([3, 4, 5]), lambda t: t.unsqueeze(0).expand(3, 4, 5)),
            'contiguous': (lambda t: t.contiguous(), lambda t: t.contiguous()),
            'squeeze': (lambda t: t.unsqueeze(1).squeeze(), lambda t: t.unsqueeze(1).squeeze()),
            'squeeze_dim': (lambda t: t.unsqueeze(1).squeeze_dim(1), lambda t: t.unsqueeze(1).squeeze(1)),
        }
        for name, (gf, tf) in cases.items():
            with self.subTest(op=name):
                self.check_view(gf, tf, a, name, kind='tslice')

    def test_view_errors(self):
        t = to_gnn(rand((4, 5), np.float32)).t()
        with self.assertRaises(GLib.Error) as cm:
            t.view([20])
        self.assertIn('Use reshape instead', cm.exception.message)
        with self.assertRaises(GLib.Error) as cm:
            t.view([3, 7])
        self.assertIn("shape '[3, 7]' is invalid for input of size 20", cm.exception.message)
        with self.assertRaises(GLib.Error):
            t.transpose(0, 5)
        with self.assertRaises(GLib.Error):
            t.narrow(0, 3, 5)
        with self.assertRaises(GLib.Error):
            t.expand([3, 4])
        with self.assertRaises(GLib.Error):
            t.permute([0, 0])

    def test_expand_broadcast_grad(self):
        a = rand((3, 1), np.float64, seed=3)
        self.check_op(lambda t: t.expand([2, 3, 4]), lambda t: t.expand(2, 3, 4), [a], name='expand')

    def test_zero_size(self):
        a = rand((0, 3), np.float32)
        self.check_op(lambda t: t.reshape([3, 0]), lambda t: t.reshape(3, 0), [a], name='reshape0')
        self.check_op(lambda t: t.transpose(0, 1), lambda t: t.transpose(0, 1), [a], name='transpose0')

    def test_to_dtype(self):
        a = rand((2, 3), np.float32, seed=4)
        self.check_op(lambda t: t.to_dtype(Gnn.Dtype.FLOAT64), lambda t: t.to(torch.float64), [a], name='to64')
        g = to_gnn(a)
        self.assertIs(g.to_dtype(Gnn.Dtype.FLOAT32), g)
        h = g.to_dtype(Gnn.Dtype.FLOAT16).to_dtype(Gnn.Dtype.FLOAT32)
        want = torch.from_numpy(a).half().float().numpy()
        np.testing.assert_array_equal(to_np(h), want)
        b = g.to_dtype(Gnn.Dtype.BFLOAT16).to_dtype(Gnn.Dtype.FLOAT32)
        want = torch.from_numpy(a).bfloat16().float().numpy()
        np.testing.assert_array_equal(to_np(b), want)

    def test_grad_fn_names(self):
        a = to_gnn(rand((2, 3), np.float32), True)
        ta = torch.from_numpy(rand((2, 3), np.float32)).requires_grad_()
        pairs = [
            (a.view([3, 2]), ta.view(3, 2)), (a.transpose(0, 1), ta.transpose(0, 1)),
            (a.t(), ta.t()), (a.permute([1, 0]), ta.permute(1, 0)), (a.narrow(0, 0, 1), ta.narrow(0, 0, 1)),
            (a.select(0, 1), ta.select(0, 1)), (a.unsqueeze(0), ta.unsqueeze(0)),
            (a.expand([2, 2, 3]), ta.expand(2, 2, 3)), (a.clone(), ta.clone()),
            (a.unsqueeze(0).squeeze_dim(0), ta.unsqueeze(0).squeeze(0)),
        ]
        for g, t in pairs:
            self.assertEqual(g.get_grad_fn_name(), type(t.grad_fn).__name__)


if __name__ == '__main__':
    main()
