"""GnnModule from Python: subclasses, registration by attribute, traversal, modes, against torch."""
import numpy as np
import torch
from torch import nn

from gnntest import Gnn, GLib, GObject, ParityTest, main, rand, to_gnn, to_np
from torch_note_modules import RunningMean as TorchRunningMean


def construct_int(default=0):
    return GObject.Property(type=int, default=default,
                            flags=GObject.ParamFlags.READWRITE | GObject.ParamFlags.CONSTRUCT_ONLY)


class MyLinear(Gnn.Module):
    """The Modules note's MyLinear: (input @ weight) + bias."""
    __gtype_name__ = 'TestMyLinear'
    in_features = construct_int()
    out_features = construct_int()

    def do_setup(self):
        self.weight = Gnn.Parameter.new(
            Gnn.Tensor.new_randn([self.in_features, self.out_features], None, Gnn.Dtype.FLOAT32, None), True)
        self.bias = Gnn.Parameter.new(Gnn.Tensor.new_randn([self.out_features], None, Gnn.Dtype.FLOAT32, None), True)
        return True

    def do_forward(self, args):
        x = args[0]
        return Gnn.Args.pack(x.matmul(self.weight).add(self.bias, 1.0))


class TorchMyLinear(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(in_features, out_features))
        self.bias = nn.Parameter(torch.randn(out_features))

    def forward(self, input):
        return (input @ self.weight) + self.bias


class RunningMean(Gnn.Module):
    """The Modules note's RunningMean: a buffer updated in forward."""
    __gtype_name__ = 'TestRunningMean'
    num_features = construct_int()

    def do_setup(self):
        self.momentum = 0.9
        self.register_buffer('mean', Gnn.Tensor.new_zeros([self.num_features], Gnn.Dtype.FLOAT32, None), True)
        return True

    def do_forward(self, args):
        x = args[0]
        self.mean = self.mean.mul_scalar(self.momentum).add(x.mul_scalar(1.0 - self.momentum), 1.0)
        return Gnn.Args.pack(self.mean)


class Net(Gnn.Module):
    """Two MyLinear layers, one registered twice (shared), and a reserved slot."""
    __gtype_name__ = 'TestNet'

    def do_setup(self):
        self.l0 = MyLinear(in_features=4, out_features=3)
        self.l1 = MyLinear(in_features=3, out_features=1)
        self.again = self.l0
        self.register_module('nothing', None)
        return True

    def do_forward(self, args):
        return Gnn.Args.pack(self.l1(self.l0(args[0]).relu()))


class TorchNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.l0 = TorchMyLinear(4, 3)
        self.l1 = TorchMyLinear(3, 1)
        self.again = self.l0
        self.register_module('nothing', None)

    def forward(self, x):
        return self.l1(torch.relu(self.l0(x)))


def copy_params(gnn_module, torch_module):
    """Copies torch's parameter values into gnn's, by name."""
    tp = dict(torch_module.named_parameters())
    with Gnn.no_grad():
        for name, p in gnn_module.named_parameters():
            p.copy_(to_gnn(tp[name].detach().numpy()))


class ModuleTest(ParityTest):
    def test_my_linear_parity(self):
        g, t = MyLinear(in_features=4, out_features=3), TorchMyLinear(4, 3)
        copy_params(g, t)
        x = rand((5, 4), np.float32, seed=1)
        self.check_op(lambda xx: g(xx), lambda xx: t(xx), [x], name='MyLinear')
        for (gn, gp), (tn, tp) in zip(g.named_parameters(), t.named_parameters()):
            self.assertEqual(gn, tn)
            self.assert_close(to_np(gp.get_grad()), tp.grad.numpy(), 1e-5, 1e-6, gn)

    def test_net_names_and_repr(self):
        g, t = Net(), TorchNet()
        self.assertEqual([n for n, _ in g.named_parameters()], [n for n, _ in t.named_parameters()])
        # torch 1.13 has no remove_duplicate here: the names recent PyTorch gives
        self.assertEqual([n for n, _ in g.named_parameters(remove_duplicate=False)],
                         ['l0.weight', 'l0.bias', 'l1.weight', 'l1.bias', 'again.weight', 'again.bias'])
        self.assertEqual([n for n, _ in g.named_modules()], [n for n, _ in t.named_modules()])
        self.assertEqual([n for n, _ in g.named_modules(prefix='net', remove_duplicate=False)],
                         [n for n, _ in t.named_modules(prefix='net', remove_duplicate=False)])
        self.assertEqual([n for n, _ in g.named_children()], [n for n, _ in t.named_children()])
        self.assertEqual(repr(g).replace('TestMyLinear', 'TorchMyLinear').replace('TestNet', 'TorchNet'), repr(t))
        copy_params(g, t)
        x = rand((2, 4), np.float32, seed=2)
        self.check_op(lambda xx: g(xx), lambda xx: t(xx), [x], name='Net')

    def test_named_modules_memo(self):
        g, t = Net(), TorchNet()
        gm, tm = {g.l1}, {t.l1}
        self.assertEqual([n for n, _ in g.named_modules(gm, 'top')], [n for n, _ in t.named_modules(tm, 'top')])
        self.assertEqual(len(gm), len(tm))

    def test_running_mean(self):
        g, t = RunningMean(num_features=4), TorchRunningMean(4)
        for k in range(3):
            x = rand((4,), np.float32, seed=10 + k)
            got = g(to_gnn(x))
            want = t(torch.from_numpy(x))
            self.assert_close(to_np(got), want.numpy(), 1e-6, 1e-7, 'running mean %d' % k)
        self.assertEqual([n for n, _ in g.named_buffers()], [n for n, _ in t.named_buffers()])
        self.assert_close(to_np(g.get_buffer('mean')), t.mean.numpy(), 1e-6, 1e-7, 'buffer')

    def test_attribute_rules(self):
        m = MyLinear(in_features=2, out_features=2)
        with self.assertRaises(TypeError):
            m.weight = Gnn.Tensor.new_zeros([2, 2], Gnn.Dtype.FLOAT32, None)
        m.weight = None
        self.assertEqual([n for n, _ in m.named_parameters()], ['bias'])
        m.note = 'plain attribute'
        self.assertEqual(m.note, 'plain attribute')
        with self.assertRaises(AttributeError):
            m.missing
        with self.assertRaises(GLib.Error) as cm:
            m.register_parameter('a.b', None)
        self.assertIn("can't contain", cm.exception.message)
        del m.bias
        self.assertEqual(list(m.named_parameters()), [])

    def test_training_mode(self):
        g, t = Net(), TorchNet()
        g.eval()
        t.eval()
        self.assertEqual([m.training for m in g.modules()], [m.training for m in t.modules()])
        g.l0.train()
        t.l0.train()
        self.assertEqual([m.training for m in g.modules()], [m.training for m in t.modules()])
        seen = []
        g.l1.connect('notify::training', lambda *a: seen.append(1))
        g.train()
        g.train()
        self.assertEqual(seen, [1])

    def test_zero_grad_and_dtype(self):
        g = Net()
        x = to_gnn(rand((2, 4), np.float32))
        g(x).sum_all().backward()
        self.assertTrue(all(p.get_grad() is not None for p in g.parameters()))
        g.zero_grad(True)
        self.assertTrue(all(p.get_grad() is None for p in g.parameters()))
        params_before = g.parameters()
        g.double()
        self.assertTrue(all(a is b for a, b in zip(params_before, g.parameters())))
        self.assertTrue(all(p.get_dtype() == Gnn.Dtype.FLOAT64 for p in g.parameters()))
        self.assertEqual(g.props.device, 'cpu')

    def test_type_converts_integer_buffers(self):
        """type (dst_type), an override: integer buffers change too; a parameter that requires
        grad cannot become an integer tensor (the checks test-module.c made of gnn_module_type)."""
        m = Gnn.Module()
        m.weight = Gnn.Parameter.new(Gnn.Tensor.new_ones([2], Gnn.Dtype.FLOAT64, None), True)
        m.register_buffer('count', Gnn.Tensor.new_zeros([1], Gnn.Dtype.INT64, None), True)
        self.assertIs(m.type(Gnn.Dtype.FLOAT32), m)
        self.assertEqual(m.count.get_dtype(), Gnn.Dtype.FLOAT32)
        self.assertEqual(m.weight.get_dtype(), Gnn.Dtype.FLOAT32)
        with self.assertRaises(GLib.Error) as cm:
            m.type(Gnn.Dtype.INT64)
        self.assertTrue(cm.exception.matches(Gnn.error_quark(), Gnn.Error.DTYPE))
        for alias, dtype in (('double', Gnn.Dtype.FLOAT64), ('half', Gnn.Dtype.FLOAT16),
                             ('bfloat16', Gnn.Dtype.BFLOAT16), ('float', Gnn.Dtype.FLOAT32)):
            self.assertIs(getattr(m, alias)(), m)
            self.assertEqual(m.weight.get_dtype(), dtype)
        self.assertIs(m.cpu(), m)
        try:
            Gnn.Backend.get_for_device_type('cuda')
        except GLib.Error:
            with self.assertRaises(GLib.Error) as cm:
                m.cuda()
            self.assertTrue(cm.exception.matches(Gnn.error_quark(), Gnn.Error.DEVICE))
        m.add_module('inner', Gnn.Linear.new(2, 1, False))
        self.assertIsInstance(m.get_submodule('inner'), Gnn.Linear)

    def test_forward_hooks_like_torch(self):
        """The Modules note's forward hook example: numbers equal PyTorch's."""
        g, t = MyLinear(in_features=4, out_features=3), TorchMyLinear(4, 3)
        copy_params(g, t)
        x = rand((2, 4), np.float32, seed=3)

        def pre_t(m, inputs):
            return inputs[0] + 1.0
        def post_t(m, inputs, output):
            return output * 2.0
        def pre_g(m, inputs):
            return inputs[0].add_scalar(1.0)
        def post_g(m, inputs, output):
            return output.mul_scalar(2.0)
        seen = []
        t.register_forward_pre_hook(pre_t)
        t.register_forward_hook(post_t)
        h1 = g.register_forward_pre_hook(pre_g)
        g.register_forward_hook(post_g)
        g.register_forward_hook(lambda m, i, o: seen.append('prepended'), prepend=True)
        # the signals fire after the registered hooks
        g.connect('forward-post', lambda m, i, o: seen.append('signal'))
        got = g(to_gnn(x))
        want = t(torch.from_numpy(x))
        self.assert_close(to_np(got), want.detach().numpy(), 1e-5, 1e-6, 'hooked output')
        self.assertEqual(seen, ['prepended', 'signal'])
        self.assertTrue(g.remove_hook(h1))
        self.assertFalse(g.remove_hook(h1))
        got = g(to_gnn(x))
        want = t.forward(torch.from_numpy(x)) * 2.0
        self.assert_close(to_np(got), want.detach().numpy(), 1e-5, 1e-6, 'without pre-hook')

    def test_hook_decorators(self):
        g = MyLinear(in_features=2, out_features=2)
        seen = []
        x = to_gnn(np.ones((1, 2), np.float32), requires_grad=True)
        plain = to_np(g(x))

        @g.forward_pre_hook
        def pre(m, inputs):
            seen.append('pre')

        @g.forward_hook(prepend=True)
        def post(m, inputs, output):
            seen.append('post')
            return output.mul_scalar(3.0)

        @g.full_backward_hook
        def back(m, grad_input, grad_output):
            seen.append('backward')

        self.assertTrue(callable(pre) and callable(post))      # still the functions
        got = g(x)
        self.assert_close(to_np(got), plain * 3.0, 1e-6, 1e-6, 'decorated forward hook output')
        got.sum_all().backward()
        self.assertEqual(seen, ['pre', 'post', 'backward'])
        self.assertTrue(g.remove_hook(post.hook_handle))
        self.assertTrue(g.remove_hook(pre.hook_handle))
        seen.clear()
        self.assert_close(to_np(g(x)), plain, 1e-6, 1e-6, 'after remove_hook')
        self.assertEqual(seen, [])

    def test_forward_hook_errors_and_always_call(self):
        g = MyLinear(in_features=2, out_features=2)
        calls = []

        def broken(m, inputs):
            raise ValueError('hook failed')
        h = g.register_forward_pre_hook(broken)
        with self.assertRaises(ValueError):
            g(to_gnn(np.ones((1, 2), np.float32)))
        g.remove_hook(h)
        g.register_forward_hook(lambda m, i, o: calls.append(o), always_call=True)
        with self.assertRaises(GLib.Error):
            g(to_gnn(np.ones((1, 3), np.float32)))   # wrong shape: forward fails
        self.assertEqual(calls, [None])

    def test_global_hooks_fire_first(self):
        g = MyLinear(in_features=2, out_features=2)
        order = []
        g.register_forward_pre_hook(lambda m, i: order.append('module'))
        handle = Gnn.register_module_forward_pre_hook(lambda m, a: order.append('global'))
        try:
            g(to_gnn(np.ones((1, 2), np.float32)))
        finally:
            self.assertTrue(Gnn.remove_module_hook(handle))
        self.assertEqual(order, ['global', 'module'])

    def test_backward_hooks_like_torch(self):
        """The Modules note's hook example, backward part: numbers equal PyTorch's, also for a
        module called twice in one graph."""
        g, t = MyLinear(in_features=3, out_features=3), TorchMyLinear(3, 3)
        copy_params(g, t)
        x = rand((2, 3), np.float32, seed=5)
        log_g, log_t = [], []

        def bw_t(m, grad_input, grad_output):
            log_t.append(('post', len(grad_input), len(grad_output)))
            return (grad_input[0] * 3.0,)

        def bw_g(m, grad_input, grad_output):
            log_g.append(('post', len(grad_input), len(grad_output)))
            return (grad_input[0].mul_scalar(3.0),)

        def pre_t(m, grad_output):
            log_t.append(('pre', len(grad_output)))
            return (grad_output[0] * 0.5,)

        def pre_g(m, grad_output):
            log_g.append(('pre', len(grad_output)))
            return (grad_output[0].mul_scalar(0.5),)

        t.register_full_backward_hook(bw_t)
        g.register_full_backward_hook(bw_g)
        if hasattr(t, 'register_full_backward_pre_hook'):
            t.register_full_backward_pre_hook(pre_t)
        else:
            # torch 1.13 has no backward pre-hooks: the same scaling through a tensor hook
            orig_forward = t.forward
            def forward_with_pre(xx):
                out = orig_forward(xx)
                out.register_hook(lambda grad: pre_t(t, (grad,))[0])
                return out
            t.forward = forward_with_pre
        g.register_full_backward_pre_hook(pre_g)

        xt = torch.from_numpy(x).requires_grad_()
        xg = to_gnn(x, True)
        t(t(xt)).sum().backward()
        g(g(xg)).sum_all().backward()
        self.assert_close(to_np(xg.get_grad()), xt.grad.numpy(), 1e-5, 1e-6, 'input grad')
        for (n, gp), (_, tp) in zip(g.named_parameters(), t.named_parameters()):
            self.assert_close(to_np(gp.get_grad()), tp.grad.numpy(), 1e-5, 1e-6, n)
        self.assertEqual([e for e in log_g if e[0] == 'post'], [e for e in log_t if e[0] == 'post'])
        self.assertEqual(len([e for e in log_g if e[0] == 'pre']), 2)

    def test_backward_hook_forbids_inplace_on_output(self):
        g = MyLinear(in_features=2, out_features=2)
        g.register_full_backward_hook(lambda m, gi, go: None)
        y = g(to_gnn(np.ones((1, 2), np.float32), True))
        with self.assertRaises(GLib.Error) as cm:
            y.mul_scalar_(2.0)
        self.assertIn('BackwardHookFunctionBackward is a view and is being modified inplace', cm.exception.message)
        tm = TorchMyLinear(2, 2)
        tm.register_full_backward_hook(lambda m, gi, go: None)
        with self.assertRaises(RuntimeError) as cm2:
            tm(torch.ones(1, 2, requires_grad=True)).mul_(2.0)
        self.assertIn('BackwardHookFunctionBackward is a view and is being modified inplace', str(cm2.exception))

    def test_python_exceptions_reach_the_caller(self):
        class Bad(Gnn.Module):
            __gtype_name__ = 'TestBadForward'

            def do_forward(self, args):
                return {}['missing']

        class BadSetup(Gnn.Module):
            __gtype_name__ = 'TestBadSetup'

            def do_setup(self):
                raise ValueError('bad size')

        m = Bad()
        x = to_gnn(np.ones(2, np.float32))
        with self.assertRaises(KeyError):
            m(x)
        # C callers get a GError carrying the Python exception
        with self.assertRaises(GLib.Error) as cm:
            Gnn.Module.forward_tensor(m, x)
        self.assertIn("KeyError: 'missing'", cm.exception.message)
        b = BadSetup()
        with self.assertRaises(GLib.Error) as cm:
            b.setup()
        self.assertIn('ValueError: bad size', cm.exception.message)

    def test_skip_init(self):
        gen = Gnn.Generator.get_default()
        before = gen.get_offset()
        lin = Gnn.Module.new_skip_init('GnnLinear', ['in-features', 'out-features'],
                                       [GObject.Value(int, 8), GObject.Value(int, 3)])
        self.assertEqual(gen.get_offset(), before)   # nothing was drawn
        self.assertEqual(repr(lin), repr(torch.nn.utils.skip_init(torch.nn.Linear, 8, 3)))
        self.assertEqual(lin.weight.shape, (3, 8))

    def test_created_by_type_name(self):
        m = GObject.new(GObject.type_from_name('TestMyLinear'), in_features=3, out_features=2)
        self.assertEqual(m.weight.shape, (3, 2))
        # created by C from the name, as a model loader does
        m2 = Gnn.Module.new_from_type_name('TestMyLinear', ['in-features', 'out-features'],
                                           [GObject.Value(int, 5), GObject.Value(int, 4)])
        self.assertIsInstance(m2, MyLinear)
        self.assertEqual(m2.weight.shape, (5, 4))
        self.assertEqual(m2(to_gnn(np.ones((1, 5), np.float32))).shape, (1, 4))
        self.assertEqual(m(to_gnn(np.ones((1, 3), np.float32))).shape, (1, 2))


if __name__ == '__main__':
    main()
