#!/usr/bin/python3
"""Modules written the torch way (__init__ with super().__init__(), attributes, forward), with
gnn imported as torch: real GObject subclasses that C calls and the JSON tree rebuilds, their
printed form, copies, the methods that return the module, parameter and buffer slots, the
training flag and the lazy traversals, each compared with torch 1.13."""
import copy
import inspect
import json
import subprocess
import sys
import textwrap

import numpy as np
import torch

from gnntest import Gnn, main, rand, to_np, ParityTest

import gnn
from gnn import nn


# the same class body in both libraries: only the name nn stands for differs
def neural_network(nn):
    class NeuralNetwork(nn.Module):
        def __init__(self):
            super().__init__()
            self.flatten = nn.Flatten()
            self.linear_relu_stack = nn.Sequential(
                nn.Linear(4 * 4, 12),
                nn.ReLU(),
                nn.Linear(12, 12),
                nn.ReLU(),
                nn.Linear(12, 10),
            )
            self.calls = 0

        def forward(self, x):
            self.calls += 1
            x = self.flatten(x)
            logits = self.linear_relu_stack(x)
            return logits
    return NeuralNetwork


NeuralNetwork = neural_network(nn)
TorchNeuralNetwork = neural_network(torch.nn)


class TwoHeads(nn.Module):
    """forward with a keyword argument and a tuple result."""

    def __init__(self, n):
        super().__init__()
        self.a = nn.Linear(n, 2)
        self.b = nn.Linear(n, 3)

    def forward(self, x, scale=1.0, mask=None):
        a = self.a(x) * scale
        if mask is not None:
            a = a * mask
        return a, self.b(x)


class Slots(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_parameter('p', None)
        self.register_buffer('b', None)
        self.register_module('child', None)


class TorchSlots(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.register_parameter('p', None)
        self.register_buffer('b', None)
        self.register_module('child', None)


def gsum(t):
    return t.sum_all()


def same_weights(gm, tm):
    gm.load_state_dict({k: v.detach().clone() for k, v in tm.state_dict().items()})


class TorchStyleModules(ParityTest):
    def setUp(self):
        torch.manual_seed(0)
        self.tm = TorchNeuralNetwork()
        self.gm = NeuralNetwork()
        same_weights(self.gm, self.tm)
        self.x = rand((3, 4, 4), seed=4)

    def test_forward_and_grads_match_torch(self):
        tx = torch.from_numpy(self.x)
        gx = gnn.from_numpy(self.x)
        tout, gout = self.tm(tx), self.gm(gx)
        self.assert_close(to_np(gout), tout.detach().numpy(), 1e-5, 1e-6, 'logits')
        tout.sum().backward()
        gsum(gout).backward()
        tp = dict(self.tm.named_parameters())
        for name, p in self.gm.named_parameters():
            self.assert_close(to_np(p.get_grad()), tp[name].grad.numpy(), 1e-5, 1e-6, name)
        self.assertEqual(self.gm.calls, 1)

    def test_a_real_gobject_subclass_that_c_calls(self):
        from gi.repository import GObject
        self.assertTrue(GObject.type_is_a(type(self.gm).__gtype__, Gnn.Module.__gtype__))
        self.assertEqual(type(self.gm).__gtype__.name, '__main__+neural_network+NeuralNetwork')
        gx = gnn.from_numpy(self.x)
        want = to_np(self.gm(gx))
        # through gnn_module_forward with a GnnArgs, and from a Sequential's C forward
        out = Gnn.Module.forward(self.gm, Gnn.Args.pack(gx))
        self.assert_close(to_np(out.get_value(0)), want, 0, 0, 'Module.forward')
        seq = nn.Sequential(self.gm, nn.ReLU())
        self.assert_close(to_np(seq(gx)), np.maximum(want, 0), 0, 0, 'in a Sequential')
        self.assertEqual(self.gm.calls, 3)
        self.assertIsInstance(seq[0], NeuralNetwork)

    def test_errors_of_forward_reach_the_caller(self):
        with self.assertRaises(TypeError):
            self.gm(gnn.from_numpy(self.x), 1, 2)

    def test_type_names(self):
        def make():
            class Block(nn.Module):
                def forward(self, x):
                    return x
            return Block
        first, second = make(), make()
        self.assertEqual(first.__gtype__.name, '__main__+TorchStyleModules+test_type_names+make+Block')
        self.assertEqual(second.__gtype__.name, '__main__+TorchStyleModules+test_type_names+make+v2+Block')
        self.assertEqual(str(second()), 'Block()')

        class Named(nn.Module):
            __gtype_name__ = 'TestTorchModulesNamed'
        self.assertEqual(Named.__gtype__.name, 'TestTorchModulesNamed')

    def test_json_tree_rebuilt_in_this_run_and_the_next(self):
        text = self.gm.to_json(False)
        tree = json.loads(text)
        self.assertEqual(tree['type'], '__main__+neural_network+NeuralNetwork')
        back = Gnn.Module.new_from_json(text, -1)
        self.assertIsInstance(back, NeuralNetwork)
        self.assertEqual(str(back), str(self.gm))
        self.assertEqual(back.calls, 0)
        back.load_state_dict(self.gm.state_dict())
        gx = gnn.from_numpy(self.x)
        self.assert_close(to_np(back(gx)), to_np(self.gm(gx)), 0, 0, 'rebuilt')
        # another process that defines the same class rebuilds the tree under the same name
        script = textwrap.dedent('''
            import sys, gi
            gi.require_version('Gnn', '1.0')
            from gi.repository import Gnn
            from gnn import nn
            from test_torch_modules import TwoHeads
            m = Gnn.Module.new_from_json(sys.stdin.read(), -1)
            print(type(m).__name__, type(m).__gtype__.name, len(list(m.parameters())))
        ''')
        import test_torch_modules     # this file as the module the other process imports
        text = test_torch_modules.TwoHeads(3).to_json(False)
        run = subprocess.run([sys.executable, '-c', script], input=text, capture_output=True, text=True)
        self.assertEqual(run.returncode, 0, run.stderr)
        out = run.stdout.split()
        self.assertEqual(out, ['TwoHeads', 'test_torch_modules+TwoHeads', '4'])

    def test_repr_as_torch(self):
        self.assertEqual(repr(self.gm), repr(self.tm))
        self.assertEqual(str(self.gm), str(self.tm))
        self.assertEqual(repr(Slots()), repr(TorchSlots()).replace('TorchSlots', 'Slots'))

    def test_deepcopy(self):
        self.gm.calls = 7
        c = copy.deepcopy(self.gm)
        self.assertIsInstance(c, NeuralNetwork)
        self.assertEqual(c.calls, 7)
        self.assertEqual(str(c), str(self.gm))
        gx = gnn.from_numpy(self.x)
        self.assert_close(to_np(c(gx)), to_np(self.gm(gx)), 0, 0, 'copy')
        for (n1, p1), (n2, p2) in zip(self.gm.named_parameters(), c.named_parameters()):
            self.assertEqual(n1, n2)
            self.assertIsNot(p1, p2)
        with gnn.no_grad():
            next(c.parameters()).fill_(0.0)
        self.assertNotEqual(float(gsum(next(self.gm.parameters()).abs()).item()), 0.0)

    def test_methods_return_the_module(self):
        m = self.gm
        for result in (m.to('cpu'), m.to(gnn.device('cpu')), m.to(device='cpu'), m.cpu(), m.float(),
                       m.double(), m.to(Gnn.Dtype.FLOAT32), m.to('cpu', Gnn.Dtype.FLOAT32),
                       m.to(dtype=Gnn.Dtype.FLOAT32), m.train(), m.eval(), m.train(True),
                       m.requires_grad_(), m.apply(lambda mod: None)):
            self.assertIs(result, m)
        self.assertIsInstance(NeuralNetwork().to('cpu'), NeuralNetwork)
        self.assertIs(m.half(), m)
        self.assertEqual(next(m.parameters()).get_dtype(), Gnn.Dtype.FLOAT16)
        t64 = gnn.from_numpy(np.zeros(2))
        self.assertIs(m.to(t64), m)
        self.assertEqual({p.get_dtype() for p in m.parameters()}, {Gnn.Dtype.FLOAT64})
        self.assertIs(m.to(dtype='float64'), m)
        self.assertEqual({p.get_dtype() for p in m.parameters()}, {Gnn.Dtype.FLOAT64})
        self.assertIs(m.to('cpu', Gnn.Dtype.FLOAT32, False), m)
        self.assertEqual({p.get_dtype() for p in m.parameters()}, {Gnn.Dtype.FLOAT32})
        with self.assertRaises(TypeError) as e:
            m.to(Gnn.Dtype.INT64)
        self.assertIn('floating point', str(e.exception))
        with self.assertRaises(TypeError):
            m.to(3.5)
        self.assertIs(m.requires_grad_(False), m)
        self.assertFalse(any(p.requires_grad for p in m.parameters()))
        with self.assertRaises(ValueError):
            m.train('yes')

    def test_apply_order_as_torch(self):
        got, want = [], []
        self.gm.apply(lambda mod: got.append(type(mod).__name__))
        self.tm.apply(lambda mod: want.append(type(mod).__name__))
        self.assertEqual(got, want)

    def test_zero_grad_sets_to_none(self):
        gsum(self.gm(gnn.from_numpy(self.x))).backward()
        self.assertIsNone(self.gm.zero_grad())
        self.assertTrue(all(p.get_grad() is None for p in self.gm.parameters()))
        gsum(self.gm(gnn.from_numpy(self.x))).backward()
        self.tm(torch.from_numpy(self.x)).sum().backward()
        self.gm.zero_grad(set_to_none=False)
        self.tm.zero_grad(set_to_none=False)
        for p in self.gm.parameters():
            self.assertEqual(float(gsum(p.get_grad().abs()).item()), 0.0)

    def test_training_flag_and_modes(self):
        m, t = self.gm, self.tm
        m.training = False
        t.training = False
        self.assertEqual([x.training for x in m.modules()], [x.training for x in t.modules()])
        self.assertFalse(m.training)
        self.assertTrue(m.linear_relu_stack.training)
        m.linear_relu_stack[0].training = False
        m.training = True
        self.assertFalse(m.linear_relu_stack[0].training)
        self.assertIs(m.eval(), m)
        self.assertFalse(any(x.training for x in m.modules()))
        self.assertIs(m.train(), m)
        self.assertTrue(all(x.training for x in m.modules()))

    def test_lazy_traversals(self):
        for name in ('parameters', 'named_parameters', 'buffers', 'named_buffers', 'children',
                     'named_children', 'modules', 'named_modules'):
            self.assertTrue(inspect.isgenerator(getattr(self.gm, name)()), name)
            self.assertTrue(inspect.isgenerator(getattr(self.tm, name)()), name)
            self.assertEqual([n for n, _ in getattr(self.gm, name)()] if name.startswith('named') else
                             [type(v).__name__ for v in getattr(self.gm, name)()],
                             [n for n, _ in getattr(self.tm, name)()] if name.startswith('named') else
                             [type(v).__name__ for v in getattr(self.tm, name)()], name)
        self.assertEqual(list(self.gm.state_dict().keys()), list(self.tm.state_dict().keys()))
        self.assertTrue(inspect.isgenerator(self.gm.named_modules(memo=set())))

    def test_arguments_and_results(self):
        m = TwoHeads(3)
        x = gnn.from_numpy(rand((2, 3), seed=2))
        a, b = m(x)
        a2, b2 = m(x, 2.0)
        self.assert_close(to_np(a2), 2 * to_np(a), 1e-6, 1e-6, 'scale by position')
        mask = gnn.from_numpy(np.array([[1.0, 0.0]], np.float32))
        a3, _ = m(x, mask=mask, scale=3.0)
        self.assert_close(to_np(a3), 3 * to_np(a) * np.array([[1.0, 0.0]]), 1e-6, 1e-6, 'keywords')
        self.assertEqual(tuple(b.shape), (2, 3))

        class Passes(nn.Module):
            def forward(self, items, table, flag=False):
                return {'n': len(items), 'keys': sorted(table), 'flag': flag}
        self.assertEqual(Passes()([1, 2, 3], {'b': 1, 'a': 2}, flag=True),
                         {'n': 3, 'keys': ['a', 'b'], 'flag': True})

        class Nothing(nn.Module):
            def forward(self, x):
                return None
        self.assertIsNone(Nothing()(x))


class ParameterAndSlots(ParityTest):
    def same_refusal(self, g, t, name, g_value, t_value):
        """Assigning the values to the attribute is refused by gnn with torch's TypeError text."""
        with self.assertRaises(TypeError) as want:
            setattr(t, name, t_value)
        with self.assertRaises(TypeError) as got:
            setattr(g, name, g_value)
        self.assertEqual(str(got.exception), str(want.exception))

    def test_parameter(self):
        t = gnn.from_numpy(np.ones(3, np.float32))
        p = nn.Parameter(t)
        self.assertIsInstance(p, Gnn.Parameter)
        self.assertTrue(p.requires_grad)
        self.assertFalse(nn.Parameter(t, requires_grad=False).requires_grad)
        self.assertTrue(nn.Parameter(t, True).requires_grad)
        self.assertEqual(tuple(nn.Parameter().shape), tuple(torch.nn.Parameter().shape))
        with self.assertRaises(TypeError):
            nn.Parameter([1.0, 2.0])

    def test_none_slots_register_what_is_assigned(self):
        m, t = Slots(), TorchSlots()
        self.assertIsNone(m.p)
        self.assertIsNone(m.b)
        self.assertIsNone(m.child)
        self.assertEqual(list(m.named_parameters()), list(t.named_parameters()))
        self.assertEqual(list(m.state_dict().keys()), list(t.state_dict().keys()))
        data = np.ones(2, np.float32)
        self.same_refusal(m, t, 'p', gnn.from_numpy(data), torch.from_numpy(data))
        m.p = nn.Parameter(gnn.from_numpy(data))
        m.b = gnn.from_numpy(data * 2)
        t.p = torch.nn.Parameter(torch.from_numpy(data))
        t.b = torch.from_numpy(data * 2)
        self.assertEqual([n for n, _ in m.named_parameters()], ['p'])
        self.assertEqual([n for n, _ in m.named_buffers()], ['b'])
        self.assertEqual(list(m.state_dict().keys()), list(t.state_dict().keys()))
        self.same_refusal(m, t, 'child', 5, 5)
        m.child = nn.ReLU()
        self.assertIsInstance(m.child, Gnn.ReLU)
        m.p = None
        self.assertIsNone(m.p)

    def test_none_slots_of_gnn_layers(self):
        g, t = nn.Linear(2, 3, bias=False), torch.nn.Linear(2, 3, bias=False)
        self.assertIsNone(g.bias)
        self.assertIsNone(t.bias)
        data = np.zeros(3, np.float32)
        self.same_refusal(g, t, 'bias', gnn.from_numpy(data), torch.from_numpy(data))
        g.bias = nn.Parameter(gnn.from_numpy(data))
        self.assertEqual([n for n, _ in g.named_parameters()], ['weight', 'bias'])
        bn = nn.BatchNorm2d(2, affine=False)
        self.assertIsNone(bn.weight)
        with self.assertRaises(AttributeError):
            g.no_such_thing

    def test_extra_repr(self):
        class Scaled(nn.Module):
            def __init__(self, k):
                super().__init__()
                self.k = k
                self.inner = nn.Linear(2, 2)

            def extra_repr(self):
                return 'k=%d' % self.k + super().extra_repr()

        class Twice(Scaled):
            def extra_repr(self):
                return super().extra_repr() + ', twice'
        self.assertEqual(str(Scaled(3)), 'Scaled(\n  k=3\n  (inner): Linear(in_features=2, out_features=2, bias=True)\n)')
        self.assertEqual(Twice(4).extra_repr(), 'k=4, twice')
        self.assertEqual(nn.Linear(2, 3).extra_repr(), torch.nn.Linear(2, 3).extra_repr())

    def test_module_replaces_a_plain_attribute(self):
        class M(nn.Module):
            def __init__(self):
                super().__init__()
                self.layer = 5
                self.layer = nn.Linear(2, 2)
        m = M()
        self.assertIsInstance(m.layer, Gnn.Linear)
        self.assertEqual([n for n, _ in m.named_children()], ['layer'])


if __name__ == '__main__':
    main()
