"""Custom autograd functions (Gnn.Function) written in Python, against torch.autograd.Function."""
import numpy as np
import torch

from gnntest import Gnn, GLib, ParityTest, main, rand, to_gnn, to_np


class Cube(Gnn.Function):
    __gtype_name__ = 'TestCube'

    def do_forward(self, inputs):
        x, = inputs
        self.save_for_backward([x])
        return [x.mul(x).mul(x)]

    def do_backward(self, grad_outputs):
        g, = grad_outputs
        x, = self.get_saved_tensors()
        return [g.mul(x).mul(x).mul_scalar(3.0)]


class TorchCube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x * x

    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return g * x * x * 3


class SplitScale(Gnn.Function):
    """Two inputs, two outputs, the second output unused in the loss."""
    __gtype_name__ = 'TestSplitScale'

    def do_forward(self, inputs):
        a, b = inputs
        self.save_for_backward([a, b])
        return [a.mul(b), a.add(b, 1.0)]

    def do_backward(self, grads):
        a, b = self.get_saved_tensors()
        g0, g1 = grads
        ga = g0.mul(b).add(g1, 1.0) if self.needs_input_grad(0) else None
        gb = g0.mul(a).add(g1, 1.0) if self.needs_input_grad(1) else None
        return [ga, gb]


class Broken(Gnn.Function):
    __gtype_name__ = 'TestBroken'

    def do_forward(self, inputs):
        return [inputs[0].mul_scalar(2.0)]

    def do_backward(self, grads):
        raise ValueError('deliberately broken')


class FunctionTest(ParityTest):
    def test_cube_parity(self):
        for dt in (np.float32, np.float64):
            x = rand((3, 4), dt, seed=1)
            out = self.check_op(lambda t: Cube().apply([t])[0], TorchCube.apply, [x], name='cube')
            self.assertEqual(out.get_grad_fn_name(), 'TestCubeBackward')

    def test_two_outputs(self):
        a = to_gnn(rand((3,), np.float64, seed=2), True)
        b = to_gnn(rand((3,), np.float64, seed=3), True)
        p, s = SplitScale().apply([a, b])
        p.sum_all().backward()   # s gets no gradient: backward sees zeros for it
        np.testing.assert_allclose(to_np(a.get_grad()), to_np(b))
        np.testing.assert_allclose(to_np(b.get_grad()), to_np(a))

    def test_needs_input_grad(self):
        a = to_gnn(rand((3,), np.float64, seed=2), True)
        b = to_gnn(rand((3,), np.float64, seed=3), False)
        p, s = SplitScale().apply([a, b])
        p.add(s, 1.0).sum_all().backward()
        self.assertIsNone(b.get_grad())
        np.testing.assert_allclose(to_np(a.get_grad()), to_np(b) + 1)

    def test_no_record_without_grad(self):
        a = to_gnn(rand((3,), np.float32))
        out = Cube().apply([a])[0]
        self.assertIsNone(out.get_grad_fn_name())
        with Gnn.no_grad():
            b = to_gnn(rand((3,), np.float32), True)
            self.assertIsNone(Cube().apply([b])[0].get_grad_fn_name())

    def test_saved_tensor_modified_in_place(self):
        x = to_gnn(rand((3,), np.float32), True)
        y = x.mul_scalar(2.0)
        out = Cube().apply([y])[0]
        y.add_scalar_(1.0)
        with self.assertRaises(GLib.Error) as cm:
            out.sum_all().backward()
        self.assertIn('modified by an inplace operation', cm.exception.message)

    def test_backward_twice(self):
        x = to_gnn(rand((3,), np.float32), True)
        s = Cube().apply([x])[0].sum_all()
        s.backward(None, False)
        with self.assertRaises(GLib.Error) as cm:
            s.backward(None, False)
        self.assertIn('second time', cm.exception.message)

    def test_python_exception_becomes_error(self):
        x = to_gnn(rand((3,), np.float32), True)
        out = Broken().apply([x])[0]
        with self.assertRaises(GLib.Error) as cm:
            out.sum_all().backward()
        self.assertIn('TestBroken', cm.exception.message)

    def test_apply_once(self):
        f = Cube()
        x = to_gnn(rand((3,), np.float32))
        f.apply([x])
        with self.assertRaises(GLib.Error):
            f.apply([x])


if __name__ == '__main__':
    main()
