# torch.fx.symbolic_trace over gnn (gnn/fx/gnn-graph.c, gi/overrides/_gnn/fx.py): the same
# module definitions traced by torch 1.13 and by gnn give the same nodes (op, name, target)
# in the same order, and what tracing cannot follow is torch's TraceError
#
# SPDX-License-Identifier: LGPL-2.1-or-later
import operator
import unittest

import numpy as np

import torch
import torch.fx

import gnn
from gi.repository import Gnn


def make_models(lib):
    F = lib.nn.functional

    class MLP(lib.nn.Module):
        def __init__(self):
            super().__init__()
            self.linear = lib.nn.Linear(4, 4)
            self.out = lib.nn.Linear(4, 2)

        def forward(self, x):
            y = F.relu(self.linear(x))
            y = y + x
            y = y + 1
            return self.out(y).view(-1, 2) * 2

    class Conv(lib.nn.Module):
        def __init__(self):
            super().__init__()
            self.features = lib.nn.Sequential(lib.nn.Conv2d(1, 4, 3), lib.nn.BatchNorm2d(4),
                                              lib.nn.ReLU())
            self.fc = lib.nn.Linear(16, 3)

        def forward(self, input):
            h = self.features(input)
            h = lib.flatten(h, 1)
            return self.fc(h).relu()

    class Params(lib.nn.Module):
        def __init__(self):
            super().__init__()
            self.weight = lib.nn.Parameter(lib.ones(3, 3))

        def forward(self, x):
            return x @ self.weight + self.weight

    return MLP(), Conv(), Params()


def describe(graph):
    rows = []
    for n in graph.nodes:
        target = n.target
        if n.op == 'call_function':
            target = target.__name__
        rows.append((n.op, n.name, target))
    return rows


class TestSymbolicTrace(unittest.TestCase):
    def test_same_nodes_as_torch(self):
        for tm, gm in zip(make_models(torch), make_models(gnn)):
            with self.subTest(model=type(tm).__name__):
                expected = describe(torch.fx.symbolic_trace(tm).graph)
                found = describe(Gnn.fx.symbolic_trace(gm).graph)
                self.assertEqual(found, expected)

    def test_args_and_users(self):
        g = Gnn.fx.symbolic_trace(make_models(gnn)[0]).graph
        nodes = {n.name: n for n in g.nodes}
        self.assertEqual(nodes['add'].args, (nodes['relu'], nodes['x']))
        self.assertEqual(nodes['add_1'].args, (nodes['add'], 1))
        self.assertIs(nodes['add'].target, operator.add)
        self.assertEqual(list(nodes['x'].users), [nodes['linear'], nodes['add']])
        self.assertEqual(nodes['view'].args, (nodes['out'], -1, 2))
        self.assertEqual(nodes['output'].args, (nodes['mul'],))
        self.assertTrue(g.lint())
        self.assertIn('%add_1 : [#users=1] = call_function[target=operator.add](args = (%add, 1)',
                      str(g))

    def test_graph_edit(self):
        g = Gnn.fx.symbolic_trace(make_models(gnn)[0]).graph
        nodes = {n.name: n for n in g.nodes}
        nodes['add_1'].replace_all_uses_with(nodes['add'])
        self.assertTrue(g.eliminate_dead_code())
        self.assertNotIn('add_1', [n.name for n in g.nodes])

    def test_graph_module_runs_as_the_module(self):
        for tm, gm in zip(make_models(torch), make_models(gnn)):
            with self.subTest(model=type(tm).__name__):
                gm.load_state_dict(gnn.load_state_dict_from_torch(tm.state_dict())
                                   if hasattr(gnn, 'load_state_dict_from_torch') else
                                   {k: gnn.tensor(v.detach().numpy()) for k, v in tm.state_dict().items()})
                tm.eval()
                gm.eval()
                traced = Gnn.fx.symbolic_trace(gm)
                self.assertEqual(list(traced.state_dict().keys()),
                                 list(torch.fx.symbolic_trace(tm).state_dict().keys()))
                x = torch.randn(2, 1, 4, 4) if type(tm).__name__ == 'Conv' else torch.randn(3, 4 if type(tm).__name__ == 'MLP' else 3)
                gx = gnn.tensor(x.numpy())
                expected = tm(x).detach().numpy()
                self.assertTrue((abs(gm(gx).numpy() - expected) <= 1e-6 + 1e-5 * abs(expected)).all())
                self.assertTrue((abs(traced(gx).numpy() - expected) <= 1e-6 + 1e-5 * abs(expected)).all())

    def test_recompile_after_edit(self):
        gm = Gnn.fx.symbolic_trace(make_models(gnn)[0])
        x = gnn.ones(2, 4)
        before = gm(x).numpy()
        nodes = {n.name: n for n in gm.graph.nodes}
        nodes['add_1'].replace_all_uses_with(nodes['add'])
        gm.graph.eliminate_dead_code()
        self.assertTrue((gm(x).numpy() == before).all())   # the old plan until recompile
        gm.recompile()
        self.assertFalse((gm(x).numpy() == before).all())
        g = gm.graph
        g.inserting_before(g.nodes[-1])
        g.create_node('call_module', 'missing', None, None)
        g.inserting_before(None)
        with self.assertRaises(Exception) as cm:
            gm.recompile()
        self.assertIn("unknown call_module target 'missing'", str(cm.exception))

    def test_fuse_conv_bn_eval_as_torch(self):
        from torch.nn.utils.fusion import fuse_conv_bn_eval, fuse_linear_bn_eval
        torch.manual_seed(0)
        for bias in (True, False):
            tc, tb = torch.nn.Conv2d(2, 3, 3, bias=bias), torch.nn.BatchNorm2d(3)
            tb.running_mean.uniform_(-1, 1)
            tb.running_var.uniform_(0.5, 2)
            tb.weight.data.uniform_(0.5, 2)
            tb.bias.data.uniform_(-1, 1)
            gc, gb = gnn.nn.Conv2d(2, 3, 3, bias=bias), gnn.nn.BatchNorm2d(3)
            gc.load_state_dict({k: gnn.tensor(v.numpy()) for k, v in tc.state_dict().items()})
            gb.load_state_dict({k: gnn.tensor(v.numpy()) for k, v in tb.state_dict().items()})
            tc.eval(), tb.eval(), gc.eval(), gb.eval()
            tf, gf = fuse_conv_bn_eval(tc, tb), Gnn.fuse_conv_bn_eval(gc, gb)
            for k in ('weight', 'bias'):
                e = tf.state_dict()[k].numpy()
                self.assertTrue((abs(gf.state_dict()[k].numpy() - e) <= 1e-6 + 1e-5 * abs(e)).all(), k)
            x = torch.randn(2, 2, 5, 5)
            e = tf(x).detach().numpy()
            self.assertTrue((abs(gf(gnn.tensor(x.numpy())).numpy() - e) <= 1e-5 + 1e-5 * abs(e)).all())
        tl, tb1 = torch.nn.Linear(4, 3), torch.nn.BatchNorm1d(3)
        tb1.running_mean.uniform_(-1, 1)
        gl, gb1 = gnn.nn.Linear(4, 3), gnn.nn.BatchNorm1d(3)
        gl.load_state_dict({k: gnn.tensor(v.numpy()) for k, v in tl.state_dict().items()})
        gb1.load_state_dict({k: gnn.tensor(v.numpy()) for k, v in tb1.state_dict().items()})
        tl.eval(), tb1.eval(), gl.eval(), gb1.eval()
        e = fuse_linear_bn_eval(tl, tb1).weight.detach().numpy()
        self.assertTrue((abs(Gnn.fuse_linear_bn_eval(gl, gb1).weight.numpy() - e) <= 1e-6 + 1e-5 * abs(e)).all())
        with self.assertRaises(AssertionError):
            Gnn.fuse_conv_bn_eval(gnn.nn.Conv2d(1, 1, 1), gnn.nn.BatchNorm2d(1))

    def test_fuse_pass(self):
        tm, gm = make_models(torch)[1], make_models(gnn)[1]
        gm.load_state_dict({k: gnn.tensor(v.numpy()) for k, v in tm.state_dict().items()})
        gm.eval()
        traced = Gnn.fx.symbolic_trace(gm)
        x = gnn.tensor(torch.randn(2, 1, 4, 4).numpy())
        before = gm(x).numpy()
        Gnn.fx.fuse_conv_bn(traced)
        self.assertEqual([n.op for n in traced.graph.nodes].count('call_module'), 3)
        self.assertNotIn('features_1', [n.name for n in traced.graph.nodes])
        self.assertTrue((abs(traced(x).numpy() - before) <= 1e-5 + 1e-5 * abs(before)).all())
        self.assertTrue((gm(x).numpy() == before).all())   # the traced root is unchanged
        self.assertIsInstance(gm.features[0], Gnn.Conv2d)
        self.assertIsNot(traced.get_submodule('features.0'), gm.features[0])

    def test_control_flow_is_a_trace_error(self):
        class Branchy(gnn.nn.Module):
            def forward(self, x):
                if x.sum() > 0:
                    return x
                return -x

        with self.assertRaises(Gnn.fx.TraceError) as cm:
            Gnn.fx.symbolic_trace(Branchy())
        self.assertIn('control flow', str(cm.exception))

        class Loop(gnn.nn.Module):
            def forward(self, x):
                return [t for t in x]

        with self.assertRaises(Gnn.fx.TraceError):
            Gnn.fx.symbolic_trace(Loop())

    def test_c_module_root_is_refused(self):
        with self.assertRaises(Gnn.fx.TraceError) as cm:
            Gnn.fx.symbolic_trace(gnn.nn.Linear(2, 2))
        self.assertIn('Linear', str(cm.exception))

    def test_patched_functions_are_restored(self):
        before = gnn.nn.functional.relu
        Gnn.fx.symbolic_trace(make_models(gnn)[0])
        self.assertIs(gnn.nn.functional.relu, before)
        x = gnn.ones(2, 4)
        self.assertEqual(tuple(make_models(gnn)[0](x).shape), (2, 2))



def specialized_model(lib):
    class Flagged(lib.nn.Module):
        def __init__(self):
            super().__init__()
            self.linear = lib.nn.Linear(4, 3)
            self.p = lib.nn.Parameter(lib.ones(3))

        def forward(self, x, flag=True, scale=2):
            y = self.linear(x) + self.p
            y = lib.relu(y).sum(1)
            return y * scale, y.t()

    return Flagged()


class TestCodeAndPasses(unittest.TestCase):
    """gm.code, print (gm), print_tabular, concrete_args, defaults, Interpreter and ShapeProp,
    each against what torch 1.13 gives for the same definition."""

    def traced_pair(self, **kw):
        tm, gm = specialized_model(torch), specialized_model(gnn)
        gm.load_state_dict({k: gnn.tensor(v.detach().numpy()) for k, v in tm.state_dict().items()})
        return torch.fx.symbolic_trace(tm, **kw), Gnn.fx.symbolic_trace(gm, **kw)

    def test_code_as_torch(self):
        for kw in ({}, {'concrete_args': {'flag': True}}, {'concrete_args': {'flag': None}},
                   {'concrete_args': {'scale': 3, 'flag': torch.fx.PH}}):
            with self.subTest(**{k: str(v) for k, v in kw.items()}):
                gkw = dict(kw)
                if 'concrete_args' in kw:
                    gkw['concrete_args'] = {k: (gnn.fx.PH if v is torch.fx.PH else v)
                                            for k, v in kw['concrete_args'].items()}
                tm = torch.fx.symbolic_trace(specialized_model(torch), **kw)
                gm = Gnn.fx.symbolic_trace(specialized_model(gnn), **gkw)
                expected = tm.code.replace('torch.', 'gnn.').replace('gnn.fx._symbolic_trace', 'gnn.fx._symbolic_trace')
                self.assertEqual(gm.code, expected)
                self.assertEqual(describe(gm.graph), describe(tm.graph))
                # str (graph) with the placeholders' defaults, as torch prints them
                self.assertEqual(str(gm.graph).replace('gnn.', 'torch.'), str(tm.graph))

    def test_print_as_torch(self):
        tm, gm = self.traced_pair()
        self.assertEqual(type(gm).__name__, type(tm).__name__)
        self.assertIsInstance(gm, gnn.fx.GraphModule)
        self.assertIs(type(Gnn.fx.symbolic_trace(specialized_model(gnn))), type(gm))
        self.assertEqual(repr(gm), repr(tm))
        self.assertEqual(str(gm).replace('gnn.', 'torch.'), str(tm))
        import contextlib
        import io
        outs = []
        for m in (gm, tm):
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                m.print_readable()
            outs.append(out.getvalue())
        self.assertEqual(outs[0].replace('gnn.', 'torch.'), outs[1])
        # the code is Python that runs: compiled with its globals it is forward
        code = gm.graph.python_code('self')
        namespace = dict(code.globals)
        exec(code.src, namespace)
        x = gnn.randn(2, 4)
        for a, b in zip(namespace['forward'](gm, x), gm(x)):
            self.assertTrue((a.numpy() == b.numpy()).all())

    def test_specialized_graph_runs_and_checks(self):
        tm, gm = self.traced_pair(concrete_args={'flag': True})
        x = torch.randn(2, 4)
        gx = gnn.tensor(x.numpy())
        for t, g in zip(tm(x), gm(gx)):
            e = t.detach().numpy()
            self.assertTrue((abs(g.numpy() - e) <= 1e-6 + 1e-5 * abs(e)).all())
        with self.assertRaises(AssertionError) as tcm:
            tm(x, False)
        with self.assertRaises(AssertionError) as gcm:
            gm(gx, False)
        self.assertEqual(str(gcm.exception), str(tcm.exception))
        # an input by its placeholder's name, and a default
        e = tm(x, scale=5)[0].detach().numpy()
        self.assertTrue((abs(gm(gx, scale=5)[0].numpy() - e) <= 1e-6 + 1e-5 * abs(e)).all())

    def test_concrete_args_misuse(self):
        with self.assertRaises(TypeError) as cm:
            Gnn.fx.symbolic_trace(specialized_model(gnn), concrete_args={'nope': 1})
        self.assertIn("no parameter 'nope'", str(cm.exception))
        with self.assertRaises(RuntimeError) as cm:
            Gnn.fx.symbolic_trace(specialized_model(gnn), concrete_args=(1,))
        self.assertIn('Tracing expected 3 arguments but got 1 concrete arguments', str(cm.exception))
        with self.assertRaises(Gnn.fx.TraceError):
            Gnn.fx.symbolic_trace(specialized_model(gnn), concrete_args={'flag': [True]})

    def test_print_tabular(self):
        gm = Gnn.fx.symbolic_trace(make_models(gnn)[2])
        import contextlib
        import io
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            gm.graph.print_tabular()
        lines = out.getvalue().splitlines()
        # tabulate's 'simple' layout: headers at least two wider than their names, two
        # spaces between columns, no trailing blanks
        self.assertEqual(lines[0].split(), ['opcode', 'name', 'target', 'args', 'kwargs'])
        self.assertEqual(lines[1], '-------------  ------  --------------------------  ----------------  --------')
        self.assertEqual(lines[2], 'placeholder    x       x                           ()                {}')
        self.assertEqual(lines[4], 'call_function  matmul  <built-in function matmul>  (x, weight)       {}')
        self.assertEqual(lines[-1].split(), ['output', 'output', 'output', '(add,)', '{}'])
        self.assertEqual(len(lines), 2 + len(gm.graph.nodes))
        self.assertTrue(all(line == line.rstrip() for line in lines))

    def test_interpreter_as_torch(self):
        # the Interpreter example of torch.fx's documentation: swap sigmoid and neg
        def make(lib):
            class Fn(lib.nn.Module):
                def forward(self, x):
                    return lib.sigmoid(x).neg()
            return Fn()

        def swap(fx, lib):
            class NegSigmSwap(fx.Interpreter):
                def call_function(self, target, args, kwargs):
                    if target is lib.sigmoid:
                        return lib.neg(*args, **kwargs)
                    return super().call_function(target, args, kwargs)

                def call_method(self, target, args, kwargs):
                    if target == 'neg':
                        return args[0].sigmoid()
                    return super().call_method(target, args, kwargs)
            return NegSigmSwap

        x = torch.randn(3, 4)
        expected = swap(torch.fx, torch)(torch.fx.symbolic_trace(make(torch))).run(x).numpy()
        found = swap(Gnn.fx, gnn)(Gnn.fx.symbolic_trace(make(gnn))).run(gnn.tensor(x.numpy())).numpy()
        self.assertTrue((abs(found - expected) <= 1e-6 + 1e-5 * abs(expected)).all())
        self.assertTrue((abs(found - torch.sigmoid(-x).numpy()) <= 1e-6).all())
        # garbage collection: after a run only what the caller did not drop is left
        interp = gnn.fx.Interpreter(Gnn.fx.symbolic_trace(make(gnn)))
        interp.run(gnn.ones(2))
        self.assertEqual([n.name for n in interp.env], ['output'])
        kept = gnn.fx.Interpreter(Gnn.fx.symbolic_trace(make(gnn)), garbage_collect_values=False)
        kept.run(gnn.ones(2))
        self.assertEqual([n.name for n in kept.env], ['x', 'sigmoid', 'neg', 'output'])
        with self.assertRaises(RuntimeError) as cm:
            gnn.fx.Interpreter(Gnn.fx.symbolic_trace(make(gnn))).run()
        self.assertIn('Expected positional argument for parameter x', str(cm.exception))
        self.assertIn('While executing %x : [#users=1] = placeholder[target=x]', str(cm.exception))

    def test_shape_prop_as_torch(self):
        from torch.fx.passes.shape_prop import ShapeProp as TorchShapeProp
        from gnn.fx.passes.shape_prop import ShapeProp
        tm, gm = self.traced_pair()
        x = torch.randn(2, 4)
        TorchShapeProp(tm).propagate(x)
        ShapeProp(gm).propagate(gnn.tensor(x.numpy()))
        for tn, gn in zip(tm.graph.nodes, gm.graph.nodes):
            with self.subTest(node=tn.name):
                self.assertEqual(gn.name, tn.name)
                tmeta, gmeta = tn.meta.get('tensor_meta'), gn.meta.get('tensor_meta')
                self.assertEqual(tmeta is None, gmeta is None)
                if tmeta is None:
                    continue
                pairs = list(zip(tmeta, gmeta)) if isinstance(tmeta, tuple) and not hasattr(tmeta, 'shape') \
                    else [(tmeta, gmeta)]
                for t, g in pairs:
                    self.assertEqual(tuple(g.shape), tuple(t.shape))
                    self.assertEqual(g.stride, t.stride)
                    self.assertEqual(g.requires_grad, t.requires_grad)
                    self.assertEqual(str(g.dtype), str(t.dtype))
                    self.assertEqual((g.is_quantized, g.qparams), (t.is_quantized, t.qparams))


class TestTransforms(unittest.TestCase):
    """torch.fx.Transformer, torch.fx.experimental.optimization's fuse and remove_dropout, and
    gnn's replace_modules: each keeps the outputs within float tolerance of the model's"""

    def cnn(self, lib):
        nn = lib.nn
        return nn.Sequential(nn.Conv2d(1, 4, 3, padding=1), nn.BatchNorm2d(4), nn.ReLU(),
                             nn.Dropout(0.5), nn.Identity(),
                             nn.Flatten(), nn.Linear(4 * 6 * 6, 3))

    def pair(self):
        torch.manual_seed(0)
        tm, gm = self.cnn(torch), self.cnn(gnn)
        tm.train()
        with torch.no_grad():
            tm(torch.randn(8, 1, 6, 6))          # running statistics worth folding
        gm.load_state_dict({k: gnn.tensor(v.detach().numpy()) for k, v in tm.state_dict().items()})
        tm.eval(), gm.eval()
        return tm, gm

    def test_fuse_as_torch(self):
        from torch.fx.experimental.optimization import fuse as torch_fuse
        from gnn.fx.experimental.optimization import fuse
        tm, gm = self.pair()
        tf, gf = torch_fuse(tm), fuse(gm)
        self.assertEqual([n.op for n in gf.graph.nodes], [n.op for n in tf.graph.nodes])
        self.assertEqual(sorted(gf.state_dict()), sorted(tf.state_dict()))
        x = torch.randn(2, 1, 6, 6)
        e = tf(x).detach().numpy()
        self.assertTrue(np.allclose(gf(gnn.tensor(x.numpy())).numpy(), e, rtol=1e-5, atol=1e-5))
        self.assertTrue(np.allclose(gm(gnn.tensor(x.numpy())).numpy(), e, rtol=1e-5, atol=1e-5))
        self.assertIsInstance(gm[1], Gnn.BatchNorm2d)     # the model itself is untouched
        k = 'fused weight'
        self.assertTrue(np.allclose(gf.state_dict()['0.weight'].numpy(),
                                    tf.state_dict()['0.weight'].numpy(), rtol=1e-5, atol=1e-6), k)

    def test_remove_dropout_as_torch(self):
        from torch.fx.experimental.optimization import remove_dropout as torch_remove
        from gnn.fx.experimental.optimization import remove_dropout
        tm, gm = self.pair()
        tr, gr = torch_remove(tm), remove_dropout(gm)
        self.assertEqual(describe(gr.graph), describe(tr.graph))
        gm.train()
        gr.train()    # no dropout left: training mode gives the eval outputs of the convs
        x = gnn.randn(2, 1, 6, 6)
        a, b = gr(x).numpy(), gr(x).numpy()
        self.assertTrue((a == b).all())

    def test_transformer_records_a_new_graph(self):
        def make(lib):
            class Fn(lib.nn.Module):
                def forward(self, x):
                    return lib.sigmoid(x).neg() + 1
            return Fn()

        def swap(fx, lib):
            class Swap(fx.Transformer):
                def call_function(self, target, args, kwargs):
                    if target is lib.sigmoid:
                        return lib.tanh(*args, **kwargs) if lib is torch else \
                            self.tracer.create_proxy('call_function', gnn.tanh, args, kwargs)
                    return super().call_function(target, args, kwargs)
            return Swap
        tnew = swap(torch.fx, torch)(torch.fx.symbolic_trace(make(torch))).transform()
        gnew = swap(Gnn.fx, gnn)(Gnn.fx.symbolic_trace(make(gnn))).transform()
        self.assertEqual(describe(gnew.graph), describe(tnew.graph))
        x = torch.randn(3)
        self.assertTrue(np.allclose(gnew(gnn.tensor(x.numpy())).numpy(), tnew(x).numpy(), atol=1e-6))

    def test_replace_modules(self):
        _, gm = self.pair()
        traced = Gnn.fx.symbolic_trace(gm)
        x = gnn.randn(2, 1, 6, 6)
        before = traced(x).numpy()
        gnn.fx.replace_modules(traced, Gnn.ReLU, lambda m: gnn.nn.LeakyReLU(0.0))
        self.assertIsInstance(traced.get_submodule('2'), Gnn.LeakyReLU)
        self.assertIsInstance(gm[2], Gnn.ReLU)            # the traced root keeps its modules
        self.assertTrue(np.allclose(traced(x).numpy(), before, atol=1e-7))
        gnn.fx.replace_modules(traced, Gnn.LeakyReLU, lambda m: gnn.nn.Sigmoid())
        self.assertFalse(np.allclose(traced(x).numpy(), before, atol=1e-3))
        with self.assertRaises(TypeError):
            gnn.fx.replace_modules(traced, Gnn.Sigmoid, lambda m: 3)


class TestToDot(unittest.TestCase):
    """graph.to_dot (): one DOT node per graph node and one edge per (input, user) pair, the
    same as torch.fx's graph of the same model gives, with the modules' types and shapes."""

    def test_conv_bn_as_torch(self):
        from gnn.fx.passes.shape_prop import ShapeProp
        import re
        tm, gm = make_models(torch)[1], make_models(gnn)[1]
        tg = torch.fx.symbolic_trace(tm).graph
        traced = Gnn.fx.symbolic_trace(gm)
        ShapeProp(traced).propagate(gnn.randn(2, 1, 4, 4))
        dot = traced.graph.to_dot(gm)
        self.assertTrue(dot.startswith('digraph G {\n') and dot.endswith('}\n'))
        nodes = re.findall(r'^  "([^"]+)" \[label="([^"]*)"', dot, re.M)
        edges = re.findall(r'^  "([^"]+)" -> "([^"]+)";$', dot, re.M)
        self.assertEqual([n for n, _ in nodes], [n.name for n in tg.nodes])
        self.assertEqual(len(nodes), 8)
        self.assertEqual(sorted(edges), sorted((i.name, n.name) for n in tg.nodes for i in n.all_input_nodes))
        self.assertEqual(len(edges), 7)
        labels = dict(nodes)
        self.assertEqual(labels['features_0'], 'features_0\\ncall_module features.0: Conv2d'
                                               '\\n[2, 4, 2, 2] float32')
        self.assertIn('call_module features.1: BatchNorm2d', labels['features_1'])
        self.assertIn('[2, 3] float32', labels['relu'])
        # without a root, no module types; without shape propagation, no shapes
        plain = Gnn.fx.symbolic_trace(gm).graph.to_dot()
        self.assertIn('"features_0" [label="features_0\\ncall_module features.0"];', plain)


class TestTensorConstants(unittest.TestCase):
    """A tensor made inside forward and used with a Proxy is a get_attr node of the attribute
    _tensor_constant<i> that tracing sets on the root, one node a use, as torch.fx 1.13 does;
    the graph module holds each such tensor as a buffer."""

    @staticmethod
    def make(lib):
        class Consts(lib.nn.Module):
            def __init__(self):
                super().__init__()
                self.lin = lib.nn.Linear(2, 2)
                self.register_buffer('b', lib.ones(2))

            def forward(self, x):
                c = lib.tensor([1.0, 2.0])
                y = self.lin(x) + c
                y = y * lib.tensor([3.0, 4.0])
                y = y + c
                return y + self.b
        return Consts()

    def test_as_torch(self):
        tm, gm = self.make(torch), self.make(gnn)
        gm.lin.weight = gnn.nn.Parameter(gnn.tensor(tm.lin.weight.detach().numpy()))
        gm.lin.bias = gnn.nn.Parameter(gnn.tensor(tm.lin.bias.detach().numpy()))
        ttraced, traced = torch.fx.symbolic_trace(tm), Gnn.fx.symbolic_trace(gm)
        self.assertEqual(describe(traced.graph), describe(ttraced.graph))
        self.assertEqual(describe(traced.graph)[2], ('get_attr', '_tensor_constant0', '_tensor_constant0'))
        self.assertEqual(describe(traced.graph)[6], ('get_attr', '_tensor_constant0_1', '_tensor_constant0'))
        self.assertEqual(traced.code, ttraced.code)
        # the constants become buffers of the graph module, not of the root (an attribute there)
        self.assertEqual(list(traced.state_dict().keys()), list(ttraced.state_dict().keys()))
        self.assertEqual(list(gm.state_dict().keys()), list(tm.state_dict().keys()))
        self.assertTrue(hasattr(gm, '_tensor_constant0') and hasattr(gm, '_tensor_constant1'))
        np.testing.assert_array_equal(traced._tensor_constant1.numpy(), [3.0, 4.0])
        x = np.random.default_rng(7).standard_normal((3, 2)).astype(np.float32)
        np.testing.assert_allclose(traced(gnn.tensor(x)).detach().numpy(),
                                   ttraced(torch.tensor(x)).detach().numpy(), rtol=1e-5, atol=1e-6)
        # a second trace of the same root takes the next free names, as torch's
        self.assertEqual(describe(Gnn.fx.symbolic_trace(gm).graph)[2][1:],
                         describe(torch.fx.symbolic_trace(tm).graph)[2][1:])
        self.assertEqual(describe(Gnn.fx.symbolic_trace(gm).graph)[2][1], '_tensor_constant4')

    def test_parameter_argument_is_its_path(self):
        """A parameter of root reached without attribute access (here through a list) is the
        get_attr node of its path, not a constant."""
        class Listed(gnn.nn.Module):
            def __init__(self):
                super().__init__()
                self.w = gnn.nn.Parameter(gnn.ones(2))
                self.__dict__['held'] = [self.get_tensor('w')]

            def forward(self, x):
                return gnn.add(x, self.held[0])
        found = describe(Gnn.fx.symbolic_trace(Listed()).graph)
        self.assertEqual(found[1], ('get_attr', 'w', 'w'))

    @unittest.skipUnless(Gnn.onnx_is_available(), 'gnn was built without the onnx feature')
    def test_onnx_initializer(self):
        """The ONNX exporter, which traces symbolically, writes a constant as an initializer
        named as its buffer, and onnx's checker passes the file."""
        import io
        import onnx
        import gnn.onnx
        f = io.BytesIO()
        gnn.onnx.export(self.make(gnn), (gnn.randn(3, 2),), f)
        model = onnx.load_from_string(f.getvalue())
        onnx.checker.check_model(model, full_check=True)
        self.assertEqual(sorted(i.name for i in model.graph.initializer),
                         ['_tensor_constant0', '_tensor_constant1', 'b', 'lin.bias', 'lin.weight'])


if __name__ == '__main__':
    unittest.main()
