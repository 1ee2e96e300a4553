#!/usr/bin/python3
"""Sequential, ModuleList, ModuleDict, ParameterList and ParameterDict from Python: the same
nesting built in gnn and in torch must give the same parameter and module names, the same
printed form, and (for Sequential) the same outputs."""
import unittest

import numpy as np
import torch
from torch import nn

from gnntest import Gnn, GLib, main, rand, to_gnn, to_np
from gi.repository import GObject


def construct_double(default=1.0):
    return GObject.Property(type=float, default=default,
                            flags=GObject.ParamFlags.READWRITE | GObject.ParamFlags.CONSTRUCT_ONLY)


class ContScale(Gnn.Module):
    """y = x * weight + bias, weight filled with factor, bias with ones; four features."""
    __gtype_name__ = 'ContScale'
    factor = construct_double()

    def do_setup(self):
        self.weight = Gnn.Parameter.new(Gnn.Tensor.new_full([4], self.factor, Gnn.Dtype.FLOAT32, None), True)
        self.bias = Gnn.Parameter.new(Gnn.Tensor.new_ones([4], Gnn.Dtype.FLOAT32, None), True)
        return True

    def do_forward(self, args):
        return Gnn.Args.pack(args[0].mul(self.weight).add(self.bias, 1.0))

    def do_extra_repr(self):
        return 'factor=%g' % self.factor


class TorchContScale(nn.Module):
    def __init__(self, factor):
        super().__init__()
        self.factor = factor
        self.weight = nn.Parameter(torch.full((4,), float(factor)))
        self.bias = nn.Parameter(torch.ones(4))

    def forward(self, x):
        return x * self.weight + self.bias

    def extra_repr(self):
        return 'factor=%g' % self.factor


TorchContScale.__name__ = 'ContScale'


class ContAct(Gnn.Module):
    __gtype_name__ = 'ContAct'

    def do_forward(self, args):
        return Gnn.Args.pack(args[0].relu())


class TorchContAct(nn.Module):
    def forward(self, x):
        return torch.relu(x)


TorchContAct.__name__ = 'ContAct'


class MySeq(Gnn.Sequential):
    """A subclass of Sequential, as `class MySeq (nn.Sequential)`."""
    __gtype_name__ = 'MySeq'

    def do_setup(self):
        self.append(ContScale(factor=2.0))
        self.append(ContAct())
        return True


class TorchMySeq(nn.Sequential):
    def __init__(self):
        super().__init__(TorchContScale(2.0), TorchContAct())


TorchMySeq.__name__ = 'MySeq'


def gnn_params(*shapes, dtype=Gnn.Dtype.FLOAT32):
    return [Gnn.Parameter.new(Gnn.Tensor.new_zeros(list(s), dtype, None), True) for s in shapes]


def torch_params(*shapes, dtype=torch.float32):
    return [nn.Parameter(torch.zeros(*s, dtype=dtype)) for s in shapes]


class ContainerTest(unittest.TestCase):

    def assert_same(self, g, t):
        """Same parameter names, module names and printed form."""
        self.assertEqual([n for n, _ in g.named_parameters()], [n for n, _ in t.named_parameters()])
        self.assertEqual([n for n, _ in g.named_modules()], [n for n, _ in t.named_modules()])
        self.assertEqual(g.to_string(), repr(t))

    def test_sequential(self):
        g = Gnn.Sequential.new([ContScale(factor=2.0), ContAct(), ContScale(factor=-3.0)])
        t = nn.Sequential(TorchContScale(2.0), TorchContAct(), TorchContScale(-3.0))
        self.assert_same(g, t)
        self.assertEqual(g.get_length(), len(t))
        self.assertEqual(g.get(-1).factor, t[-1].factor)
        self.assertEqual(g.get(0).factor, t[0].factor)
        x = rand((3, 4), seed=1)
        np.testing.assert_allclose(to_np(g(to_gnn(x))), t(torch.from_numpy(x)).detach().numpy(),
                                   rtol=1e-6, atol=1e-6)
        with self.assertRaises(GLib.Error) as cm:
            g.get(3)
        self.assertTrue(cm.exception.matches(Gnn.Error.quark(), Gnn.Error.INDEX))
        with self.assertRaises(IndexError):
            t[3]
        g.append(ContAct())
        t.append(TorchContAct())
        self.assert_same(g, t)

    def test_sequential_empty(self):
        g = Gnn.Sequential.new([])
        t = nn.Sequential()
        self.assert_same(g, t)
        x = to_gnn(rand((2,)))
        self.assertIs(g(x), x)

    def test_sequential_subclass(self):
        g = MySeq()
        t = TorchMySeq()
        self.assert_same(g, t)
        x = rand((2, 4), seed=3)
        np.testing.assert_allclose(to_np(g(to_gnn(x))), t(torch.from_numpy(x)).detach().numpy(),
                                   rtol=1e-6, atol=1e-6)

    def test_module_list_insert(self):
        # the same calls on both sides, renumbering included
        g = Gnn.ModuleList.new([ContScale(factor=1.0), ContAct()])
        t = nn.ModuleList([TorchContScale(1.0), TorchContAct()])
        g.append(ContScale(factor=2.0))
        t.append(TorchContScale(2.0))
        g.insert(1, ContScale(factor=3.0))
        t.insert(1, TorchContScale(3.0))
        g.insert(0, ContAct())
        t.insert(0, TorchContAct())
        g.insert(g.get_length(), ContScale(factor=4.0))
        t.insert(len(t), TorchContScale(4.0))
        g.extend([ContAct(), ContScale(factor=5.0)])
        t.extend([TorchContAct(), TorchContScale(5.0)])
        self.assert_same(g, t)
        g.pop(2)
        t.pop(2)
        g.pop(-1)
        t.pop(-1)
        self.assert_same(g, t)
        self.assertEqual(g.get(-2).factor, t[-2].factor)
        g.set(1, ContScale(factor=9.0))
        t[1] = TorchContScale(9.0)
        self.assert_same(g, t)
        with self.assertRaises(GLib.Error) as cm:
            g.get(g.get_length())
        self.assertTrue(cm.exception.matches(Gnn.Error.quark(), Gnn.Error.INDEX))
        with self.assertRaises(GLib.Error):
            g.insert(g.get_length() + 1, ContAct())

    def test_module_list_no_forward(self):
        g = Gnn.ModuleList.new([ContAct()])
        t = nn.ModuleList([TorchContAct()])
        x = rand((2,))
        with self.assertRaises(NotImplementedError) as tcm:
            t(torch.from_numpy(x))
        with self.assertRaises(GLib.Error) as gcm:
            g(to_gnn(x))
        self.assertEqual(gcm.exception.message, str(tcm.exception))

    def test_module_dict(self):
        g = Gnn.ModuleDict.new()
        t = nn.ModuleDict()
        for key, f in (('zeta', 1.0), ('alpha', 2.0), ('mid', 3.0)):
            g.set(key, ContScale(factor=f))
            t[key] = TorchContScale(f)
        g.set('act', ContAct())
        t['act'] = TorchContAct()
        g.set('alpha', ContScale(factor=7.0))
        t['alpha'] = TorchContScale(7.0)
        self.assert_same(g, t)
        self.assertEqual(g.keys(), list(t.keys()))
        self.assertTrue(g.contains('mid'))
        self.assertFalse(g.contains('nope'))
        self.assertEqual(g.pop('mid').factor, t.pop('mid').factor)
        self.assert_same(g, t)
        self.assertEqual(g.get_length(), len(t))
        for bad in ('', 'a.b'):
            with self.assertRaises(GLib.Error) as cm:
                g.set(bad, ContAct())
            self.assertTrue(cm.exception.matches(Gnn.Error.quark(), Gnn.Error.INVALID_ARGUMENT))
            with self.assertRaises(KeyError):
                t[bad] = TorchContAct()
        with self.assertRaises(GLib.Error) as cm:
            g.get('nope')
        self.assertTrue(cm.exception.matches(Gnn.Error.quark(), Gnn.Error.INDEX))
        g.clear()
        t.clear()
        self.assert_same(g, t)

    def test_parameter_list(self):
        for shapes in ([(3,)], [(3,), (2, 3), (4, 1, 2)], []):
            g = Gnn.ParameterList.new(gnn_params(*shapes))
            t = nn.ParameterList(torch_params(*shapes))
            self.assert_same(g, t)
        g.append(Gnn.Tensor.new_zeros([2, 2], Gnn.Dtype.FLOAT64, None))
        t.append(torch.zeros(2, 2, dtype=torch.float64))
        self.assert_same(g, t)
        p = g.get(-1)
        self.assertIsInstance(p, Gnn.Parameter)
        self.assertTrue(p.requires_grad)
        with self.assertRaises(GLib.Error) as cm:
            g.append(Gnn.Tensor.new_zeros([2], Gnn.Dtype.INT64, None))
        self.assertTrue(cm.exception.matches(Gnn.Error.quark(), Gnn.Error.DTYPE))

    def test_parameter_dict(self):
        # an OrderedDict keeps PyTorch's insertion order (a plain dict given to the
        # constructor is sorted); __setitem__ keeps it too
        g = Gnn.ParameterDict.new()
        t = nn.ParameterDict()
        for key, shape, gd, td in (('foo', (3,), Gnn.Dtype.FLOAT32, torch.float32),
                                   ('bar', (2, 2), Gnn.Dtype.FLOAT64, torch.float64),
                                   ('fp16', (5,), Gnn.Dtype.FLOAT16, torch.float16),
                                   ('scalar', (), Gnn.Dtype.FLOAT32, torch.float32)):
            g.set(key, Gnn.Tensor.new_zeros(list(shape), gd, None))
            t[key] = torch.zeros(shape, dtype=td)
        self.assert_same(g, t)
        self.assertEqual(g.keys(), list(t.keys()))
        self.assertTrue(g.contains('bar'))
        self.assertFalse(g.contains('baz'))
        self.assertEqual(tuple(g.pop('bar').shape), tuple(t.pop('bar').shape))
        self.assert_same(g, t)
        self.assertEqual(g.get_length(), len(t))
        with self.assertRaises(GLib.Error) as cm:
            g.set('a.b', Gnn.Tensor.new_zeros([1], Gnn.Dtype.FLOAT32, None))
        self.assertTrue(cm.exception.matches(Gnn.Error.quark(), Gnn.Error.INVALID_ARGUMENT))
        with self.assertRaises(GLib.Error) as cm:
            g.get('bar')
        self.assertTrue(cm.exception.matches(Gnn.Error.quark(), Gnn.Error.INDEX))
        self.assert_same(Gnn.ParameterDict.new(), nn.ParameterDict())

    def test_nested(self):
        """Every container inside one model, one module shared by two of them."""
        shared_g = ContScale(factor=2.0)
        shared_t = TorchContScale(2.0)

        g = Gnn.Module()
        g.blocks = Gnn.ModuleList.new([Gnn.Sequential.new([shared_g, ContAct()]), shared_g,
                                       MySeq()])
        heads = Gnn.ModuleDict.new()
        heads.set('head', ContScale(factor=4.0))
        heads.set('aux', Gnn.Sequential.new([]))
        g.heads = heads
        g.params = Gnn.ParameterList.new(gnn_params((3,)))
        pd = Gnn.ParameterDict.new()
        pd.set('foo', gnn_params((3,))[0])
        g.param_dict = pd
        g.more = Gnn.ParameterList.new(gnn_params((2, 3), (1,)))

        t = nn.Module()
        t.blocks = nn.ModuleList([nn.Sequential(shared_t, TorchContAct()), shared_t, TorchMySeq()])
        t.heads = nn.ModuleDict()
        t.heads['head'] = TorchContScale(4.0)
        t.heads['aux'] = nn.Sequential()
        t.params = nn.ParameterList(torch_params((3,)))
        t.param_dict = nn.ParameterDict()
        t.param_dict['foo'] = torch_params((3,))[0]
        t.more = nn.ParameterList(torch_params((2, 3), (1,)))

        self.assert_same(g, t)
        self.assertEqual([n for n, _ in g.named_modules(remove_duplicate=False)],
                         [n for n, _ in t.named_modules(remove_duplicate=False)])

    def test_with_linear(self):
        """gnn's own layers in the containers: names, printing and outputs as PyTorch's."""
        g = Gnn.Sequential.new([Gnn.Linear(in_features=4, out_features=3), Gnn.ReLU(),
                                Gnn.Linear(in_features=3, out_features=2, bias=False)])
        t = nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 2, bias=False))
        self.assert_same(g, t)
        with torch.no_grad():
            for (name, gp), (_, tp) in zip(g.named_parameters(), t.named_parameters()):
                tp.copy_(torch.from_numpy(to_np(gp)))
        x = rand((5, 4), seed=7)
        np.testing.assert_allclose(to_np(g(to_gnn(x))), t(torch.from_numpy(x)).detach().numpy(),
                                   rtol=1e-5, atol=1e-6)
        gl = Gnn.ModuleList.new([Gnn.Linear(in_features=2, out_features=2), Gnn.ReLU()])
        tl = nn.ModuleList([nn.Linear(2, 2), nn.ReLU()])
        gl.insert(1, Gnn.Linear(in_features=2, out_features=5, bias=False))
        tl.insert(1, nn.Linear(2, 5, bias=False))
        self.assert_same(gl, tl)

if __name__ == '__main__':
    main()
