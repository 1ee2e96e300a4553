#!/usr/bin/python3
"""The examples of PyTorch's "Modules" note (docs/source/notes/modules.rst), built in gnn and in
torch with the same weights: outputs, gradients, names, printed forms and state dicts must be
the same. Also the Python container / state-dict overrides, and a parity test for a nested
model (named_parameters, state_dict keys, repr, load_state_dict results)."""
import collections

import numpy as np
import torch
from torch import nn
import torch.nn.functional as F

from gnntest import Gnn, GLib, GObject, ParityTest, main, rand, to_gnn, to_np
from torch_note_modules import RunningMean as TRunningMean, StatefulModule as TStatefulModule

RW_CONSTRUCT = GObject.ParamFlags.READWRITE | GObject.ParamFlags.CONSTRUCT_ONLY


def construct_int(default=0):
    return GObject.Property(type=int, default=default, flags=RW_CONSTRUCT)


def construct_double(default=0.0):
    return GObject.Property(type=float, default=default, flags=RW_CONSTRUCT)


def randn(*shape):
    return Gnn.Tensor.new_randn(list(shape), None, Gnn.Dtype.FLOAT32, None)


def param(t):
    return Gnn.Parameter.new(t, True)


# ---- the note's modules, in gnn -------------------------------------------------------------

class MyLinear(Gnn.Module):
    __gtype_name__ = 'MyLinear'
    in_features = construct_int()
    out_features = construct_int()

    def do_setup(self):
        self.weight = param(randn(self.in_features, self.out_features))
        self.bias = param(randn(self.out_features))
        return True

    def do_forward(self, args):
        return Gnn.Args.pack(args[0].matmul(self.weight).add(self.bias, 1.0))


class Net(Gnn.Module):
    __gtype_name__ = 'Net'

    def do_setup(self):
        self.l0 = MyLinear(in_features=4, out_features=3)
        self.l1 = MyLinear(in_features=3, out_features=1)
        return True

    def do_forward(self, args):
        x = self.l0(args[0])
        x = x.relu()
        x = self.l1(x)
        return Gnn.Args.pack(x)


class BigNet(Gnn.Module):
    __gtype_name__ = 'BigNet'

    def do_setup(self):
        self.l1 = MyLinear(in_features=5, out_features=4)
        self.net = Net()
        return True

    def do_forward(self, args):
        return Gnn.Args.pack(self.net(self.l1(args[0])))


class DynamicNet(Gnn.Module):
    __gtype_name__ = 'DynamicNet'
    num_layers = construct_int()

    def do_setup(self):
        self.linears = Gnn.ModuleList([MyLinear(in_features=4, out_features=4) for _ in range(self.num_layers)])
        self.activations = Gnn.ModuleDict({
            'relu': Gnn.ReLU.new(),
            'lrelu': Gnn.LeakyReLU.new(0.01),
        })
        self.final = MyLinear(in_features=4, out_features=1)
        return True

    def do_forward(self, args):
        x, act = args[0], args[1]      # GnnArgs carries the string
        for linear in self.linears:
            x = linear(x)
            x = self.activations[act](x)
        x = self.final(x)
        return Gnn.Args.pack(x)


class ModalModule(Gnn.Module):
    __gtype_name__ = 'ModalModule'

    def do_forward(self, args):
        x = args[0]
        if self.training:
            # Add a constant only in training mode.
            return Gnn.Args.pack(x.add_scalar(1.0))
        return Gnn.Args.pack(x)


class RunningMean(Gnn.Module):
    __gtype_name__ = 'RunningMean'
    num_features = construct_int()
    momentum = construct_double(0.9)

    def do_setup(self):
        self.register_buffer('mean', Gnn.Tensor.new_zeros([self.num_features], Gnn.Dtype.FLOAT32, None), True)
        return True

    def do_forward(self, args):
        x = args[0]
        self.mean = self.mean.mul_scalar(self.momentum).add(x.mul_scalar(1.0 - self.momentum), 1.0)
        return Gnn.Args.pack(self.mean)


class StatefulModule(Gnn.Module):
    __gtype_name__ = 'StatefulModule'

    def do_setup(self):
        self.param1 = param(randn(2))
        self.register_parameter('param2', param(randn(3)))
        self.register_parameter('param3', None)
        self.param_list = Gnn.ParameterList([param(randn(2)) for i in range(3)])
        self.param_dict = Gnn.ParameterDict({
            'foo': param(randn(3)),
            'bar': param(randn(4)),
        })
        self.register_buffer('buffer1', randn(4), True)
        self.register_buffer('buffer2', randn(5), False)
        self.register_buffer('buffer3', None, True)
        self.linear = Gnn.Linear.new(2, 3, True)
        return True


# ---- the same in torch (names as the note's, for the printed forms) ---------------------

class TMyLinear(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(in_features, out_features))
        self.bias = nn.Parameter(torch.randn(out_features))

    def forward(self, input):
        return (input @ self.weight) + self.bias


class TNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.l0 = TMyLinear(4, 3)
        self.l1 = TMyLinear(3, 1)

    def forward(self, x):
        x = self.l0(x)
        x = F.relu(x)
        x = self.l1(x)
        return x


class TBigNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.l1 = TMyLinear(5, 4)
        self.net = TNet()

    def forward(self, x):
        return self.net(self.l1(x))


class TDynamicNet(nn.Module):
    def __init__(self, num_layers):
        super().__init__()
        self.linears = nn.ModuleList(
            [TMyLinear(4, 4) for _ in range(num_layers)])
        self.activations = nn.ModuleDict({
            'relu': nn.ReLU(),
            'lrelu': nn.LeakyReLU()
        })
        self.final = TMyLinear(4, 1)

    def forward(self, x, act):
        for linear in self.linears:
            x = linear(x)
            x = self.activations[act](x)
        x = self.final(x)
        return x


class TModalModule(nn.Module):
    def forward(self, x):
        if self.training:
            return x + 1.
        else:
            return x


for _cls in (TMyLinear, TNet, TBigNet, TDynamicNet, TModalModule):
    _cls.__name__ = _cls.__name__[1:]


# ---- helpers ------------------------------------------------------------------------------

def copy_state(gnn_module, torch_module):
    """Copies torch's parameters and buffers into gnn's, by name, without recording."""
    tp = dict(torch_module.named_parameters())
    tb = dict(torch_module.named_buffers())
    with Gnn.no_grad():
        for name, p in gnn_module.named_parameters():
            p.copy_(to_gnn(tp[name].detach().numpy()))
        for name, b in gnn_module.named_buffers():
            b.copy_(to_gnn(tb[name].detach().numpy()))


def names(pairs):
    return [n for n, _ in pairs]


def tnp(t):
    return t.detach().numpy()


class ModulesNoteTest(ParityTest):
    def setUp(self):
        torch.manual_seed(0)
        Gnn.manual_seed(0)

    def assert_same_grads(self, g, t, what=''):
        tp = dict(t.named_parameters())
        for name, p in g.named_parameters():
            self.assertIsNotNone(p.grad, '%s %s: no gradient' % (what, name))
            self.assert_close(to_np(p.grad), tp[name].grad.numpy(), 1e-5, 1e-6, '%s grad %s' % (what, name))

    def run_both(self, g, t, x_array, *extra, what=''):
        """forward with the same input (requiring grad), backward of the sum; compares the
        outputs and the gradients of the input and of every parameter"""
        xg = to_gnn(x_array, requires_grad=True)
        xt = torch.from_numpy(x_array.copy()).requires_grad_(True)
        got = g(xg, *extra)
        want = t(xt, *extra)
        self.assert_close(to_np(got), tnp(want), 1e-5, 1e-6, what + ' output')
        self.assertEqual(got.grad_fn_name, type(want.grad_fn).__name__)
        got.sum_all().backward()
        want.sum().backward()
        self.assert_close(to_np(xg.grad), xt.grad.numpy(), 1e-5, 1e-6, what + ' input grad')
        self.assert_same_grads(g, t, what)
        return got, want

    # -- A Simple Custom Module --

    def test_my_linear(self):
        m, t = MyLinear(in_features=4, out_features=3), TMyLinear(4, 3)
        self.assertEqual(names(m.named_parameters()), ['weight', 'bias'])
        self.assertEqual(names(m.named_parameters()), names(t.named_parameters()))
        self.assertEqual(len(list(m.parameters())), 2)
        self.assertEqual([p.shape for p in m.parameters()], [tuple(p.shape) for p in t.parameters()])
        self.assertTrue(all(p.requires_grad for p in m.parameters()))
        copy_state(m, t)
        # the printed parameters, as the note prints them
        for (gn, gp), (tn, tp) in zip(m.named_parameters(), t.named_parameters()):
            self.assertEqual(repr(gp), repr(tp))
        self.assertEqual(repr(m), repr(t))
        self.assertEqual(repr(m), 'MyLinear()')
        sample_input = rand((4,), seed=1)          # 1-d, as in the note
        self.run_both(m, t, sample_input, what='MyLinear')

    # -- Modules as Building Blocks --

    def test_sequential_of_my_linear(self):
        g = Gnn.Sequential(MyLinear(in_features=4, out_features=3), Gnn.ReLU.new(),
                           MyLinear(in_features=3, out_features=1))
        t = nn.Sequential(TMyLinear(4, 3), nn.ReLU(), TMyLinear(3, 1))
        self.assertEqual(names(g.named_parameters()), names(t.named_parameters()))
        self.assertEqual(names(g.named_parameters()), ['0.weight', '0.bias', '2.weight', '2.bias'])
        self.assertEqual(repr(g), repr(t))
        self.assertEqual(len(g), len(t))
        self.assertEqual(repr(g[-1]), repr(t[-1]))
        self.assertEqual(repr(g[1:]), repr(t[1:]))
        self.assertEqual(names(g[1:].named_parameters()), names(t[1:].named_parameters()))
        copy_state(g, t)
        self.run_both(g, t, rand((4,), seed=2), what='Sequential')

    def test_net(self):
        g, t = Net(), TNet()
        self.assertEqual([(n, repr(c)) for n, c in g.named_children()],
                         [(n, repr(c)) for n, c in t.named_children()])
        self.assertEqual([(n, repr(c)) for n, c in g.named_children()],
                         [('l0', 'MyLinear()'), ('l1', 'MyLinear()')])
        self.assertEqual([repr(c) for c in g.children()], [repr(c) for c in t.children()])
        copy_state(g, t)
        self.run_both(g, t, rand((4,), seed=3), what='Net')
        # a batch (gradients accumulate: zero them first)
        g.zero_grad(True)
        t.zero_grad()
        self.run_both(g, t, rand((6, 4), seed=4), what='Net batch')

    def test_big_net_named_modules(self):
        g, t = BigNet(), TBigNet()
        got = [(n, repr(m)) for n, m in g.named_modules()]
        want = [(n, repr(m)) for n, m in t.named_modules()]
        self.assertEqual(got, want)
        # the note's output
        self.assertEqual(got, [
            ('', 'BigNet(\n  (l1): MyLinear()\n  (net): Net(\n    (l0): MyLinear()\n'
                 '    (l1): MyLinear()\n  )\n)'),
            ('l1', 'MyLinear()'),
            ('net', 'Net(\n  (l0): MyLinear()\n  (l1): MyLinear()\n)'),
            ('net.l0', 'MyLinear()'),
            ('net.l1', 'MyLinear()'),
        ])
        self.assertEqual([type(m).__name__ for m in g.modules()], [type(m).__name__ for m in t.modules()])
        copy_state(g, t)
        self.run_both(g, t, rand((3, 5), seed=5), what='BigNet')

    def test_dynamic_net(self):
        g, t = DynamicNet(num_layers=3), TDynamicNet(3)
        expected = ['linears.0.weight', 'linears.0.bias', 'linears.1.weight', 'linears.1.bias',
                    'linears.2.weight', 'linears.2.bias', 'final.weight', 'final.bias']
        self.assertEqual(names(t.named_parameters()), expected)
        self.assertEqual(names(g.named_parameters()), expected)
        self.assertEqual(repr(g), repr(t))
        self.assertEqual(len(g.linears), 3)
        self.assertEqual(list(g.activations.keys()), list(t.activations.keys()))
        self.assertIn('lrelu', g.activations)
        copy_state(g, t)
        sample_input = rand((4,), seed=6)
        for act in ('relu', 'lrelu'):
            g.zero_grad(True)
            t.zero_grad()
            self.run_both(g, t, sample_input, act, what='DynamicNet ' + act)
        # an unknown activation: KeyError in both. (A Python exception raised inside gnn's
        # do_forward reaches the caller as a GLib.Error without its text: PyGObject prints
        # and drops it, so only the lookup itself is compared here.)
        with self.assertRaises(KeyError):
            t(torch.from_numpy(sample_input), 'tanh')
        with self.assertRaises(KeyError):
            g.activations['tanh']

        # precision change with to(): parameters keep their identity, outputs still agree
        params = g.parameters()
        g.double()
        t.to(dtype=torch.float64)
        self.assertTrue(all(a is b for a, b in zip(params, g.parameters())))
        x = rand((5, 4), np.float64, seed=7)
        got = g(to_gnn(x), 'lrelu')
        want = t(torch.from_numpy(x), 'lrelu')
        self.assertEqual(got.dtype, Gnn.Dtype.FLOAT64)
        self.assert_close(to_np(got), tnp(want), 1e-10, 1e-12, 'DynamicNet float64')

        # apply() visits the modules in torch's order (children first)
        seen_g, seen_t = [], []
        g.apply(lambda m, *data: seen_g.append(type(m).__name__), None)
        t.apply(lambda m: seen_t.append(type(m).__name__))
        self.assertEqual(seen_g, seen_t)

    # -- Neural Network Training with Modules: train / eval --

    def test_modal_module(self):
        g, t = ModalModule(), TModalModule()
        x = rand((4,), seed=8)
        self.assertTrue(g.training)
        self.assert_close(to_np(g(to_gnn(x))), tnp(t(torch.from_numpy(x))), 0, 0, 'training mode')
        self.assert_close(to_np(g(to_gnn(x))), x + 1.0, 0, 0, 'training mode')
        self.assertIs(g.eval(), g)
        t.eval()
        self.assertFalse(g.training)
        self.assert_close(to_np(g(to_gnn(x))), tnp(t(torch.from_numpy(x))), 0, 0, 'evaluation mode')
        self.assert_close(to_np(g(to_gnn(x))), x, 0, 0, 'evaluation mode')
        g.train()
        self.assert_close(to_np(g(to_gnn(x))), x + 1.0, 0, 0, 'back to training mode')

    def test_training_loop_changes_parameters(self):
        """The note's training loop, shortened, by hand-written SGD (no optimizer in gnn
        yet): both libraries take the same steps."""
        g, t = Net(), TNet()
        copy_state(g, t)
        lr = 1e-2
        for k in range(20):
            x = rand((4,), seed=100 + k)
            gl = g(to_gnn(x)).abs().sum_all()
            tl = torch.abs(t(torch.from_numpy(x))).sum()
            g.zero_grad(True)
            t.zero_grad()
            gl.backward()
            tl.backward()
            with Gnn.no_grad():
                for p in g.parameters():
                    p.add_(p.grad, -lr)
            with torch.no_grad():
                for p in t.parameters():
                    p.add_(p.grad, alpha=-lr)
        g.eval()
        t.eval()
        self.assert_close(to_np(g.l1.weight), tnp(t.l1.weight), 1e-4, 1e-5, 'trained l1.weight')

    # -- Module State --

    def test_running_mean_state(self):
        m, t = RunningMean(num_features=4), TRunningMean(4)
        for k in range(10):
            x = rand((4,), seed=20 + k)
            got = m(to_gnn(x))
            want = t(torch.from_numpy(x))
            self.assert_close(to_np(got), tnp(want), 1e-6, 1e-7, 'running mean %d' % k)
        state, tstate = m.state_dict(), t.state_dict()
        self.assertEqual(list(state.keys()), list(tstate.keys()))
        self.assertEqual(list(state), ['mean'])
        self.assertEqual(len(state), 1)
        self.assertIn('mean', state)
        self.assert_close(to_np(state['mean']), tnp(tstate['mean']), 1e-6, 1e-7, 'state mean')

        m_loaded = RunningMean(num_features=4)
        result = m_loaded.load_state_dict(state)
        tresult = TRunningMean(4).load_state_dict(tstate)
        self.assertEqual(repr(result), repr(tresult))
        self.assertEqual(repr(result), '<All keys matched successfully>')
        self.assertEqual((result.missing_keys, result.unexpected_keys), ([], []))
        np.testing.assert_array_equal(to_np(m.mean), to_np(m_loaded.mean))
        # loading torch's state dict directly (a Python dict of torch tensors)
        m_from_torch = RunningMean(num_features=4)
        m_from_torch.load_state_dict(tstate)
        np.testing.assert_array_equal(to_np(m_from_torch.mean), tnp(t.mean))

        # a non-persistent buffer is a buffer, left out of the state dict
        m.register_buffer('unserialized_thing', randn(5), False)
        t.register_buffer('unserialized_thing', torch.randn(5), persistent=False)
        self.assertEqual(names(m.named_buffers()), names(t.named_buffers()))
        self.assertEqual(list(m.state_dict().keys()), list(t.state_dict().keys()))
        m.double()
        self.assertTrue(all(b.dtype == Gnn.Dtype.FLOAT64 for b in m.buffers()))

    def test_stateful_module(self):
        g, t = StatefulModule(), TStatefulModule()
        # the note's listing of m_loaded.state_dict()
        keys = ['param1', 'param2', 'buffer1', 'param_list.0', 'param_list.1', 'param_list.2',
                'param_dict.bar', 'param_dict.foo', 'linear.weight', 'linear.bias']
        self.assertEqual(list(t.state_dict().keys()), keys)
        self.assertEqual(list(g.state_dict().keys()), keys)
        self.assertEqual(names(g.named_parameters()), names(t.named_parameters()))
        self.assertEqual(names(g.named_buffers()), names(t.named_buffers()))
        self.assertEqual(repr(g), repr(t))
        # round trip through torch
        copy_state(g, t)
        loaded = StatefulModule()
        self.assertEqual(repr(loaded.load_state_dict(t.state_dict())), '<All keys matched successfully>')
        for k, v in t.state_dict().items():
            np.testing.assert_array_equal(to_np(loaded.state_dict()[k]), tnp(v), err_msg=k)
        # buffer2 (non-persistent) kept its own value
        self.assertFalse(np.array_equal(to_np(loaded.buffer2), tnp(t.buffer2)))

    # -- Module Hooks (forward part only) --

    def test_forward_hooks_example(self):
        """The note's hook example, forward hooks only: gnn has no backward module hooks
        (register_full_backward_hook) yet, so backward_hook is left out; the gradient of the
        input is still compared, through autograd alone."""
        torch.manual_seed(1)

        def forward_pre_hook(m, inputs):
            # Note that inputs are always wrapped in a tuple.
            input = inputs[0]
            return input + 1.

        def forward_hook(m, inputs, output):
            # Residual computation a la ResNet.
            return output + inputs[0]

        def g_forward_pre_hook(m, inputs):
            return inputs[0].add_scalar(1.0)

        def g_forward_hook(m, inputs, output):
            return output.add(inputs[0], 1.0)

        t = nn.Linear(3, 3)
        g = Gnn.Linear.new(3, 3, True)
        copy_state(g, t)
        x_array = rand((2, 3), seed=30)

        def both(what):
            xg = to_gnn(x_array, requires_grad=True)
            xt = torch.from_numpy(x_array.copy()).requires_grad_(True)
            got, want = g(xg), t(xt)
            self.assert_close(to_np(got), tnp(want), 1e-5, 1e-6, what)
            got.sum_all().backward()
            want.sum().backward()
            self.assert_close(to_np(xg.grad), xt.grad.numpy(), 1e-5, 1e-6, what + ' input grad')
            return to_np(got)

        plain = both('output with no forward hooks')
        tpre = t.register_forward_pre_hook(forward_pre_hook)
        gpre = g.register_forward_pre_hook(g_forward_pre_hook)
        with_pre = both('output with forward pre hook')
        tpost = t.register_forward_hook(forward_hook)
        gpost = g.register_forward_hook(g_forward_hook)
        with_both = both('output with both forward hooks')
        # the forward hook sees the inputs the pre-hook returned
        self.assert_close(with_both, with_pre + x_array + 1.0, 1e-5, 1e-6, 'residual')
        tpre.remove()
        tpost.remove()
        self.assertTrue(g.remove_hook(gpre))
        self.assertTrue(g.remove_hook(gpost))
        self.assert_close(both('output after removing forward hooks'), plain, 0, 0, 'unhooked')


# ---- the Python overrides of the containers and state dicts --------------------------------

class OverridesTest(ParityTest):
    def test_sequential_protocol(self):
        a, b, c = Gnn.ReLU.new(), Gnn.LeakyReLU.new(0.2), Gnn.ReLU.new()
        s = Gnn.Sequential(a, b)
        self.assertEqual(len(s), 2)
        self.assertIs(s[0], a)
        self.assertIs(s[-1], b)
        self.assertIs(s[-2], a)
        with self.assertRaises(IndexError):
            s[2]
        with self.assertRaises(IndexError):
            s[-3]
        self.assertEqual(list(s), [a, b])
        self.assertIn(b, s)
        self.assertNotIn(c, s)
        self.assertIs(s.append(c), s)
        self.assertEqual(len(s), 3)
        self.assertEqual(names(s.named_children()), ['0', '1', '2'])
        s[1] = Gnn.ReLU.new()
        self.assertEqual(repr(s), repr(nn.Sequential(nn.ReLU(), nn.ReLU(), nn.ReLU())))
        od = Gnn.Sequential(collections.OrderedDict([('conv', Gnn.ReLU.new()), ('act', Gnn.ReLU.new())]))
        td = nn.Sequential(collections.OrderedDict([('conv', nn.ReLU()), ('act', nn.ReLU())]))
        self.assertEqual(repr(od), repr(td))
        self.assertEqual(len(Gnn.Sequential()), 0)
        # the C constructor is still there
        self.assertEqual(len(Gnn.Sequential.new([a, b])), 2)

    def test_module_list_protocol(self):
        mods = [Gnn.ReLU.new() for _ in range(3)]
        ml = Gnn.ModuleList(mods)
        self.assertEqual(len(ml), 3)
        self.assertIs(ml[-1], mods[2])
        self.assertEqual(list(ml), mods)
        self.assertIn(mods[1], ml)
        extra = Gnn.LeakyReLU.new(0.5)
        self.assertIs(ml.append(extra), ml)
        self.assertIs(ml[3], extra)
        with self.assertRaises(IndexError):
            ml[4]
        self.assertEqual(len(ml[1:3]), 2)
        del ml[0]
        self.assertEqual(names(ml.named_children()), ['0', '1', '2'])
        self.assertIs(ml[0], mods[1])
        ml.insert(0, mods[0])
        self.assertEqual(list(ml), mods + [extra])
        self.assertIs(ml.pop(), extra)
        ml += [extra]
        self.assertEqual(len(ml), 4)
        self.assertEqual(len(Gnn.ModuleList()), 0)

    def test_module_dict_protocol(self):
        relu, lrelu = Gnn.ReLU.new(), Gnn.LeakyReLU.new(0.01)
        d = Gnn.ModuleDict({'relu': relu, 'lrelu': lrelu})
        self.assertEqual(len(d), 2)
        self.assertIs(d['relu'], relu)
        self.assertEqual(d.keys(), ['relu', 'lrelu'])
        self.assertEqual(d.values(), [relu, lrelu])
        self.assertEqual(d.items(), [('relu', relu), ('lrelu', lrelu)])
        self.assertEqual(list(d), ['relu', 'lrelu'])
        self.assertIn('relu', d)
        self.assertNotIn('tanh', d)
        with self.assertRaises(KeyError):
            d['tanh']
        d['tanh'] = Gnn.ReLU.new()
        self.assertEqual(len(d), 3)
        del d['tanh']
        self.assertIs(d.pop('lrelu'), lrelu)
        self.assertEqual(d.keys(), ['relu'])
        d.update([('b', lrelu)])
        self.assertEqual(d.keys(), ['relu', 'b'])
        d.clear()
        self.assertEqual(len(d), 0)

    def test_parameter_containers(self):
        ps = [param(randn(2)) for _ in range(2)]
        pl = Gnn.ParameterList(ps)
        self.assertEqual(len(pl), 2)
        self.assertIs(pl[-1], ps[1])
        self.assertEqual(list(pl), ps)
        self.assertIs(pl.append(Gnn.Tensor.new_zeros([3], Gnn.Dtype.FLOAT32, None)), pl)
        self.assertTrue(pl[2].requires_grad)
        self.assertIsInstance(pl[2], Gnn.Parameter)
        with self.assertRaises(IndexError):
            pl[3]
        pd = Gnn.ParameterDict({'foo': ps[0], 'bar': ps[1]})
        # a plain dict is added in sorted key order, as in PyTorch
        self.assertEqual(pd.keys(), ['bar', 'foo'])
        self.assertEqual(pd.keys(), list(nn.ParameterDict({'foo': nn.Parameter(torch.zeros(1)),
                                                           'bar': nn.Parameter(torch.zeros(1))}).keys()))
        od = Gnn.ParameterDict(collections.OrderedDict([('foo', ps[0]), ('bar', ps[1])]))
        self.assertEqual(list(od), ['foo', 'bar'])
        self.assertIs(pd['foo'], ps[0])
        self.assertIn('bar', pd)
        self.assertEqual(pd.items(), [('bar', ps[1]), ('foo', ps[0])])
        self.assertEqual(len(pd), 2)
        with self.assertRaises(KeyError):
            pd['baz']

    def test_state_dict_mapping(self):
        sd = Gnn.StateDict()
        sd['b'] = to_gnn(np.zeros(2, np.float32))
        sd['a'] = to_gnn(np.ones(2, np.float32))
        self.assertEqual(sd.keys(), ['b', 'a'])
        self.assertEqual(list(sd), ['b', 'a'])
        self.assertEqual(len(sd), 2)
        self.assertIn('a', sd)
        self.assertNotIn('c', sd)
        self.assertEqual([to_np(v).tolist() for v in sd.values()], [[0, 0], [1, 1]])
        self.assertEqual([(k, to_np(v).tolist()) for k, v in sd.items()], [('b', [0, 0]), ('a', [1, 1])])
        with self.assertRaises(KeyError):
            sd['c']
        # replacing keeps the position, as an OrderedDict does
        sd['b'] = to_gnn(np.full(2, 5.0, np.float32))
        self.assertEqual(sd.keys(), ['b', 'a'])
        self.assertEqual(to_np(sd['b']).tolist(), [5, 5])
        del sd['b']
        self.assertEqual(sd.keys(), ['a'])
        # built from a dict, numpy arrays and torch tensors copied in
        sd2 = Gnn.StateDict({'x': np.arange(3, dtype=np.float32), 'y': torch.ones(2, dtype=torch.float64)})
        self.assertEqual(sd2.keys(), ['x', 'y'])
        self.assertEqual(sd2['y'].dtype, Gnn.Dtype.FLOAT64)

    def test_state_dict_wrappers(self):
        g = Net()
        sd = g.state_dict()
        self.assertIsInstance(sd, Gnn.StateDict)
        self.assertEqual(sd.keys(), ['l0.weight', 'l0.bias', 'l1.weight', 'l1.bias'])
        self.assertEqual(g.state_dict(prefix='net.').keys(), ['net.' + k for k in sd.keys()])
        self.assertIs(g.state_dict(keep_vars=True)['l0.weight'], g.l0.weight)
        self.assertFalse(sd['l0.weight'].requires_grad)
        dest = collections.OrderedDict()
        self.assertIs(g.state_dict(destination=dest), dest)
        self.assertEqual(list(dest), sd.keys())
        # a Python dict of Gnn tensors
        other = Net()
        res = other.load_state_dict({k: v for k, v in sd.items()})
        self.assertEqual(tuple(res), ([], []))
        missing, unexpected = other.load_state_dict({'l0.weight': sd['l0.weight'], 'zz': sd['l0.bias']},
                                                    strict=False)
        self.assertEqual(missing, ['l0.bias', 'l1.weight', 'l1.bias'])
        self.assertEqual(unexpected, ['zz'])
        with self.assertRaises(GLib.Error):
            other.load_state_dict({'zz': sd['l0.bias']})


# ---- parity of a nested model ------------------------------------------------------------------

class Nested(Gnn.Module):
    __gtype_name__ = 'Nested'

    def do_setup(self):
        self.state = StatefulModule()
        self.body = Gnn.Sequential(Gnn.Linear.new(2, 4, True), Gnn.ReLU.new(), MyLinear(in_features=4, out_features=2))
        self.blocks = Gnn.ModuleList([BigNet(), Gnn.Linear.new(2, 2, False)])
        self.heads = Gnn.ModuleDict({'a': Gnn.Linear.new(2, 1, True), 'b': Net()})
        self.scale = param(randn(2))
        self.register_buffer('steps', Gnn.Tensor.new_zeros([], Gnn.Dtype.INT64, None), True)
        self.register_module('unused', None)
        return True

    def do_forward(self, args):
        x = self.body(args[0])
        return Gnn.Args.pack(self.heads['a'](x.mul(self.scale)))


class TNested(nn.Module):
    def __init__(self):
        super().__init__()
        self.state = TStatefulModule()
        self.body = nn.Sequential(nn.Linear(2, 4), nn.ReLU(), TMyLinear(4, 2))
        self.blocks = nn.ModuleList([TBigNet(), nn.Linear(2, 2, bias=False)])
        self.heads = nn.ModuleDict({'a': nn.Linear(2, 1), 'b': TNet()})
        self.scale = nn.Parameter(torch.randn(2))
        self.register_buffer('steps', torch.tensor(0))
        self.register_module('unused', None)

    def forward(self, x):
        x = self.body(x)
        return self.heads['a'](x * self.scale)


TNested.__name__ = 'Nested'


class NestedParityTest(ParityTest):
    def setUp(self):
        torch.manual_seed(2)
        self.g, self.t = Nested(), TNested()

    def test_names_keys_repr(self):
        g, t = self.g, self.t
        self.assertEqual(names(g.named_parameters()), names(t.named_parameters()))
        self.assertEqual(names(g.named_buffers()), names(t.named_buffers()))
        self.assertEqual(names(g.named_modules()), names(t.named_modules()))
        self.assertEqual(names(g.named_children()), names(t.named_children()))
        self.assertEqual(list(g.state_dict().keys()), list(t.state_dict().keys()))
        self.assertEqual(list(g.state_dict(prefix='m.').keys()), list(t.state_dict(prefix='m.').keys()))
        self.assertEqual(repr(g), repr(t))

    def test_load_state_dict_results(self):
        g, t = self.g, self.t
        tstate = t.state_dict()
        # all keys
        self.assertEqual(repr(g.load_state_dict(tstate)), repr(t.load_state_dict(tstate)))
        for k, v in g.state_dict().items():
            np.testing.assert_array_equal(to_np(v), tnp(tstate[k]), err_msg=k)
        # missing and unexpected keys, not strict: the same lists
        edited = collections.OrderedDict(tstate)
        for k in ('scale', 'body.2.bias', 'blocks.0.net.l1.weight', 'state.param_dict.bar'):
            del edited[k]
        edited['state.param3'] = torch.zeros(1)          # a None parameter: unexpected
        edited['state.buffer2'] = torch.zeros(5)         # non-persistent: unexpected
        edited['heads.c.weight'] = torch.zeros(1)
        edited['bogus'] = torch.zeros(1)
        edited['unused.weight'] = torch.zeros(1)          # under a None module: ignored
        want = t.load_state_dict(edited, strict=False)
        got = g.load_state_dict(edited, strict=False)
        self.assertEqual(got.missing_keys, want.missing_keys)
        self.assertEqual(got.unexpected_keys, want.unexpected_keys)
        self.assertEqual(tuple(got), tuple(want))
        self.assertEqual(repr(got).replace('IncompatibleKeys', '_IncompatibleKeys'), repr(want))
        # strict: the same message
        with self.assertRaises(RuntimeError) as tcm:
            TNested().load_state_dict(edited)
        with self.assertRaises(GLib.Error) as gcm:
            Nested().load_state_dict(edited)
        self.assertEqual(gcm.exception.message, str(tcm.exception))

    def test_outputs_after_loading(self):
        g, t = self.g, self.t
        g.load_state_dict(t.state_dict())
        x = rand((3, 2), seed=40)
        self.check_op(lambda xx: g(xx), lambda xx: t(xx), [x], name='Nested')


if __name__ == '__main__':
    main()
