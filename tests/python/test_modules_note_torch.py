#!/usr/bin/python3
"""The examples of PyTorch's "Modules" note (docs/source/notes/modules.rst) as the note writes
them: one set of class bodies, made once with torch's names and once with gnn's
(`import gnn as torch; from gnn import nn; import gnn.nn.functional as F` is the only change),
with the same weights loaded into both; outputs, gradients, printed forms, names and state
dicts compared. (test_modules_note.py builds the same examples in gnn's GObject style.)

A test needs the torch names the note's code uses; while gnn lacks one of them, the test is
skipped with the names it lacks (never passed without running)."""
import os
import tempfile
import unittest

import numpy as np
import torch as real_torch

from gnntest import main, rand, to_np, ParityTest

import gnn


def note_classes(torch, nn, F):
    """The note's classes, their bodies as the note writes them."""

    class MyLinear(nn.Module):
        def __init__(self, in_features, out_features):
            super().__init__()
            self.weight = nn.Parameter(torch.randn(in_features, out_features))
            self.bias = nn.Parameter(torch.randn(out_features))

        def forward(self, input):
            return (input @ self.weight) + self.bias

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.l0 = MyLinear(4, 3)
            self.l1 = MyLinear(3, 1)

        def forward(self, x):
            x = self.l0(x)
            x = F.relu(x)
            x = self.l1(x)
            return x

    class BigNet(nn.Module):
        def __init__(self):
            super().__init__()
            self.l1 = MyLinear(5, 4)
            self.net = Net()

        def forward(self, x):
            return self.net(self.l1(x))

    class DynamicNet(nn.Module):
        def __init__(self, num_layers):
            super().__init__()
            self.linears = nn.ModuleList(
                [MyLinear(4, 4) for _ in range(num_layers)])
            self.activations = nn.ModuleDict({
                'relu': nn.ReLU(),
                'lrelu': nn.LeakyReLU()
            })
            self.final = MyLinear(4, 1)

        def forward(self, x, act):
            for linear in self.linears:
                x = linear(x)
            x = self.activations[act](x)
            x = self.final(x)
            return x

    class ModalModule(nn.Module):
        def __init__(self):
            super().__init__()

        def forward(self, x):
            if self.training:
                # Add a constant only in training mode.
                return x + 1.
            else:
                return x

    class RunningMean(nn.Module):
        def __init__(self, num_features, momentum=0.9):
            super().__init__()
            self.momentum = momentum
            self.register_buffer('mean', torch.zeros(num_features))

        def forward(self, x):
            self.mean = self.momentum * self.mean + (1.0 - self.momentum) * x
            return self.mean

    class StatefulModule(nn.Module):
        def __init__(self):
            super().__init__()
            # Setting a nn.Parameter as an attribute of the module automatically registers the tensor
            # as a parameter of the module.
            self.param1 = nn.Parameter(torch.randn(2))

            # Alternative string-based way to register a parameter.
            self.register_parameter('param2', nn.Parameter(torch.randn(3)))

            # Reserves the "param3" attribute as a parameter, preventing it from being set to anything
            # except a parameter. "None" entries like this will not be present in the module's state_dict.
            self.register_parameter('param3', None)

            # Registers a list of parameters.
            self.param_list = nn.ParameterList([nn.Parameter(torch.randn(2)) for i in range(3)])

            # Registers a dictionary of parameters.
            self.param_dict = nn.ParameterDict({
                'foo': nn.Parameter(torch.randn(3)),
                'bar': nn.Parameter(torch.randn(4))
            })

            # Registers a persistent buffer (one that appears in the module's state_dict).
            self.register_buffer('buffer1', torch.randn(4), persistent=True)

            # Registers a non-persistent buffer (one that does not appear in the module's state_dict).
            self.register_buffer('buffer2', torch.randn(5), persistent=False)

            # Reserves the "buffer3" attribute as a buffer, preventing it from being set to anything
            # except a buffer. "None" entries like this will not be present in the module's state_dict.
            self.register_buffer('buffer3', None)

            # Adding a submodule registers its parameters as parameters of the module.
            self.linear = nn.Linear(2, 3)

    def init_weights_of(torch, nn):
        # Define a function to initialize Linear weights.
        # Note that no_grad() is used here to avoid tracking this computation in the autograd graph.
        @torch.no_grad()
        def init_weights(m):
            if isinstance(m, nn.Linear):
                nn.init.xavier_normal_(m.weight)
                m.bias.fill_(0.0)
        return init_weights

    return dict(MyLinear=MyLinear, Net=Net, BigNet=BigNet, DynamicNet=DynamicNet,
                ModalModule=ModalModule, RunningMean=RunningMean, StatefulModule=StatefulModule,
                init_weights=init_weights_of(torch, nn))


import torch.nn.functional as _TF  # noqa: E402
import gnn.nn.functional as _GF  # noqa: E402

T = note_classes(real_torch, real_torch.nn, _TF)
G = note_classes(gnn, gnn.nn, _GF)


def needs(*names):
    """Skips a test while gnn lacks one of the torch names the note's code there uses."""
    missing = [n for n in names if not hasattr(gnn, n)]
    return unittest.skipIf(missing, 'gnn lacks torch.%s, which this example uses' % ', torch.'.join(missing))


def both(name, *args):
    """The note's class @name made in torch and in gnn, with torch's weights in both."""
    t = T[name](*args)
    g = G[name](*args)
    g.load_state_dict({k: v.detach().clone() for k, v in t.state_dict().items()})
    return g, t


def inputs(shape, seed):
    x = rand(shape, seed=seed)
    return gnn.from_numpy(x), real_torch.from_numpy(x.copy())


class ModulesNote(ParityTest):
    def same(self, g, t, what, tol=(1e-5, 1e-6)):
        self.assert_close(to_np(g), t.detach().numpy(), tol[0], tol[1], what)

    def same_grads(self, g, t):
        tp = dict(t.named_parameters())
        for name, p in g.named_parameters():
            self.same(p.get_grad(), tp[name].grad, 'grad of ' + name)

    @needs('randn')
    def test_my_linear(self):
        m, t = both('MyLinear', 4, 3)
        self.assertEqual([n for n, _ in m.named_parameters()], [n for n, _ in t.named_parameters()])
        gx, tx = inputs((4,), 1)
        gout, tout = m(gx), t(tx)
        self.same(gout, tout, 'output')
        gout.sum_all().backward()
        tout.sum().backward()
        self.same_grads(m, t)
        self.assertEqual(repr(m), repr(t))

    @needs('randn')
    def test_sequential(self):
        real_torch.manual_seed(0)
        t = real_torch.nn.Sequential(T['MyLinear'](4, 3), real_torch.nn.ReLU(), T['MyLinear'](3, 1))
        g = gnn.nn.Sequential(G['MyLinear'](4, 3), gnn.nn.ReLU(), G['MyLinear'](3, 1))
        g.load_state_dict({k: v.detach().clone() for k, v in t.state_dict().items()})
        gx, tx = inputs((4,), 2)
        self.same(g(gx), t(tx), 'output')
        self.assertEqual(repr(g), repr(t))

    @needs('randn')
    def test_net_children_and_grads(self):
        g, t = both('Net')
        self.assertEqual([str(c) for c in g.named_children()], [str(c) for c in t.named_children()])
        gx, tx = inputs((4,), 3)
        gout, tout = g(gx), t(tx)
        self.same(gout, tout, 'output')
        gout.sum_all().backward()
        tout.sum().backward()
        self.same_grads(g, t)

    @needs('randn')
    def test_big_net_modules(self):
        g, t = both('BigNet')
        self.assertEqual([str(m) for m in g.named_modules()], [str(m) for m in t.named_modules()])
        gx, tx = inputs((5,), 4)
        self.same(g(gx), t(tx), 'output')

    @needs('randn')
    def test_dynamic_net(self):
        g, t = both('DynamicNet', 3)
        gx, tx = inputs((4,), 5)
        for act in ('relu', 'lrelu'):
            self.same(g(gx, act), t(tx, act), act)
        self.assertEqual([n for n, _ in g.named_parameters()], [n for n, _ in t.named_parameters()])
        self.assertIs(g.to(dtype=gnn.float64 if hasattr(gnn, 'float64') else 'float64'), g)
        t.to(dtype=real_torch.float64)
        x = rand((5, 4), np.float64, seed=6)[0]
        self.same(g(gnn.from_numpy(x), 'relu'), t(real_torch.from_numpy(x), 'relu'), 'float64', (1e-10, 1e-12))
        self.assertIs(g.apply(G['init_weights']), g)
        t.apply(T['init_weights'])
        self.same(g(gnn.from_numpy(x), 'relu'), t(real_torch.from_numpy(x), 'relu'), 'after apply',
                  (1e-10, 1e-12))
        # init_weights on the nn.Linear layers it is meant for
        lin = gnn.nn.Sequential(gnn.nn.Linear(4, 4), gnn.nn.ReLU())
        lin.apply(G['init_weights'])
        self.assertEqual(float(np.abs(to_np(lin[0].bias)).sum()), 0.0)

    @needs('randn', 'abs')
    def test_training_loop(self):
        g, t = both('Net')
        optimizer_g = gnn.optim.SGD(g.parameters(), lr=1e-4, weight_decay=1e-2, momentum=0.9)
        optimizer_t = real_torch.optim.SGD(t.parameters(), lr=1e-4, weight_decay=1e-2, momentum=0.9)
        for step in range(50):
            for torch, net, optimizer in ((gnn, g, optimizer_g), (real_torch, t, optimizer_t)):
                input = torch.from_numpy(rand((4,), seed=100 + step))
                output = net(input)
                loss = torch.abs(output)
                net.zero_grad()
                loss.backward()
                optimizer.step()
        self.same(g.l1.weight, t.l1.weight, 'l1.weight after training')
        self.assertIs(g.eval(), g)

    def test_modal_module(self):
        g, t = G['ModalModule'](), T['ModalModule']()
        gx, tx = inputs((4,), 7)
        self.same(g(gx), t(tx), 'training mode output')
        g.eval()
        t.eval()
        self.same(g(gx), t(tx), 'evaluation mode output')

    @needs('zeros', 'save', 'load', 'all')
    def test_running_mean(self):
        torch = gnn
        m, t = G['RunningMean'](4), T['RunningMean'](4)
        for step in range(10):
            gx, tx = inputs((4,), 10 + step)
            m(gx)
            t(tx)
        self.assertEqual(list(m.state_dict().keys()), list(t.state_dict().keys()))
        self.same(m.state_dict()['mean'], t.state_dict()['mean'], 'mean')
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, 'mean.pt')
            torch.save(m.state_dict(), path)
            m_loaded = G['RunningMean'](4)
            m_loaded.load_state_dict(torch.load(path))
            assert(torch.all(m.mean == m_loaded.mean))

    @needs('randn', 'save', 'load')
    def test_stateful_module(self):
        torch = gnn
        m, t = G['StatefulModule'](), T['StatefulModule']()
        self.assertEqual(list(m.state_dict().keys()), list(t.state_dict().keys()))
        self.assertIsNone(m.param3)
        self.assertIsNone(m.buffer3)
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, 'state.pt')
            torch.save(m.state_dict(), path)
            m_loaded = G['StatefulModule']()
            m_loaded.load_state_dict(torch.load(path))
        for k, v in m.state_dict().items():
            self.assert_close(to_np(m_loaded.state_dict()[k]), to_np(v), 0, 0, k)


if __name__ == '__main__':
    main()
