# gnn.fx.trace (gi/overrides/_gnn/fx_trace.py): a forward recorded as it runs on example
# inputs, control flow as taken. torch.jit.trace of the same models with the same weights is
# the oracle for the ops recorded, their order, the shapes of their values and the outputs
#
# SPDX-License-Identifier: LGPL-2.1-or-later
import unittest
import warnings

import numpy as np

import torch

import gnn
import gnn.fx
from gi.repository import Gnn


def make_models(lib):
    F = lib.nn.functional

    class MLP(lib.nn.Module):
        def __init__(self):
            super().__init__()
            self.fc1 = lib.nn.Linear(8, 16)
            self.fc2 = lib.nn.Linear(16, 4)

        def forward(self, x):
            h = F.relu(self.fc1(x))
            return self.fc2(h).view(x.shape[0], 2, 2)

    class CNN(lib.nn.Module):
        def __init__(self):
            super().__init__()
            self.conv = lib.nn.Conv2d(1, 4, 3, padding=1)
            self.bn = lib.nn.BatchNorm2d(4)
            self.pool = lib.nn.MaxPool2d(2)
            self.fc = lib.nn.Linear(4 * 3 * 3, 5)

        def forward(self, x):
            h = self.pool(F.relu(self.bn(self.conv(x))))
            h = h.view(h.size(0), -1)
            return self.fc(h)

    class Branch(lib.nn.Module):
        """Data-dependent control flow, a loop over a length, a shape read, tuple outputs."""

        def __init__(self):
            super().__init__()
            self.pos = lib.nn.Linear(4, 4)
            self.neg = lib.nn.Linear(4, 4)

        def forward(self, x):
            if x.sum() > 0:
                y = self.pos(x)
            else:
                y = -self.neg(x)
            for _ in range(len(x)):
                y = y * 2
            y = y.view(x.shape[0], 2, 2)
            a, b = y.chunk(2, 1)
            return a.relu(), b + x.size(1)

    return MLP(), CNN(), Branch()


def copy_weights(tm, gm):
    gm.load_state_dict({k: gnn.tensor(v.detach().numpy()) for k, v in tm.state_dict().items()})


def as_numpy(value):
    if isinstance(value, (tuple, list)):
        return [as_numpy(v) for v in value]
    return value.detach().numpy()


# what torch.jit.trace calls each gnn leaf module's forward (its inlined graph's aten op)
ATEN_OF_MODULE = {'Linear': 'linear', 'Conv2d': '_convolution', 'BatchNorm2d': 'batch_norm',
                  'MaxPool2d': 'max_pool2d', 'ReLU': 'relu'}


def gnn_ops(gm):
    """(op, shape) of each node that computes, in order, with torch's aten names."""
    rows = []
    for n in gm.graph.nodes:
        if n.op == 'call_module':
            name = ATEN_OF_MODULE[type(gm.get_submodule(n.target)).__name__]
        elif n.op == 'call_method':
            name = n.target
        elif n.op == 'call_function':
            name = n.target.__name__
        else:
            continue
        rows.append((name, list(n.meta['tensor_meta'].shape)))
    return rows


def torch_ops(traced):
    """(op, shape) of each aten node of torch.jit.trace's graph, without the shape reads
    (aten::size, aten::Int), which gnn's trace holds as constants."""
    rows = []
    for n in traced.inlined_graph.nodes():
        kind = n.kind()
        if not kind.startswith('aten::') or kind in ('aten::size', 'aten::Int'):
            continue
        rows.append((kind[len('aten::'):], n.output().type().sizes()))
    return rows


class TestTrace(unittest.TestCase):
    def setUp(self):
        torch.manual_seed(0)
        self.rng = np.random.default_rng(0)

    def pair(self, i):
        tm, gm = make_models(torch)[i], make_models(gnn)[i]
        copy_weights(tm, gm)
        tm.eval()
        gm.eval()
        return tm, gm

    def test_same_ops_as_torch_jit_trace(self):
        for i, shape in ((0, (3, 8)), (1, (2, 1, 6, 6))):
            tm, gm = self.pair(i)
            with self.subTest(model=type(gm).__name__):
                x = self.rng.standard_normal(shape).astype(np.float32)
                with warnings.catch_warnings():
                    warnings.simplefilter('ignore', torch.jit.TracerWarning)
                    ttraced = torch.jit.trace(tm, torch.tensor(x))
                traced = gnn.fx.trace(gm, (gnn.tensor(x),))
                self.assertEqual(gnn_ops(traced), torch_ops(ttraced))
                expected = ttraced(torch.tensor(x)).detach().numpy()
                found = traced(gnn.tensor(x)).detach().numpy()
                np.testing.assert_allclose(found, expected, rtol=1e-5, atol=1e-6)
                # the traced module runs the model's own layers: the same outputs, bit for bit
                np.testing.assert_array_equal(found, gm(gnn.tensor(x)).detach().numpy())
                self.assertEqual(list(traced.state_dict().keys()), list(gm.state_dict().keys()))
                self.assertEqual(list(traced.state_dict().keys()), list(tm.state_dict().keys()))
                self.assertEqual(type(traced).__name__, type(gm).__name__)
                self.assertIsInstance(traced, Gnn.fx.GraphModule)

    def test_tensor_meta_on_every_node(self):
        """Every node's meta['tensor_meta'] is what ShapeProp finds running the traced graph,
        and the values' real shapes."""
        from gnn.fx.passes.shape_prop import ShapeProp
        for i, shape in ((0, (3, 8)), (1, (2, 1, 6, 6)), (2, (3, 4))):
            gm = make_models(gnn)[i]
            gm.eval()
            x = gnn.tensor(np.abs(self.rng.standard_normal(shape)).astype(np.float32))
            with warnings.catch_warnings():
                warnings.simplefilter('ignore', gnn.fx.TracerWarning)
                traced = gnn.fx.trace(gm, x)
            with self.subTest(model=type(gm).__name__):
                recorded = {n.name: n.meta['tensor_meta'] for n in traced.graph.nodes}
                self.assertEqual(len(recorded), len(traced.graph.nodes))
                again = gnn.fx.trace(gm, x) if i != 2 else traced
                if i != 2:   # the same graph, propagated afresh
                    ShapeProp(again).propagate(x)
                    self.assertEqual({n.name: n.meta['tensor_meta'] for n in again.graph.nodes},
                                     recorded)
                self.assertEqual(list(recorded['x'].shape), list(shape))
                self.assertEqual(recorded['x'].dtype, gnn.float32)
        # the real shapes of the Branch model, and the C side's record (what exporters read)
        nodes = {n.name: n for n in traced.graph.nodes}
        self.assertEqual(list(nodes['pos'].meta['tensor_meta'].shape), [3, 4])
        self.assertEqual(list(nodes['view'].meta['tensor_meta'].shape), [3, 2, 2])
        self.assertEqual([list(m.shape) for m in nodes['chunk'].meta['tensor_meta']], [[3, 1, 2]] * 2)
        self.assertEqual([list(m.shape) for m in nodes['output'].meta['tensor_meta']], [[3, 1, 2]] * 2)
        self.assertEqual(list(nodes['view'].get_tensor_meta()[0]), [3, 2, 2])

    def test_control_flow_as_taken(self):
        tm, gm = self.pair(2)
        with self.assertRaises(Gnn.fx.TraceError):
            Gnn.fx.symbolic_trace(gm)
        x = np.abs(self.rng.standard_normal((3, 4))).astype(np.float32)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter('always')
            traced = gnn.fx.trace(gm, (gnn.tensor(x),))
        said = [w for w in caught if issubclass(w.category, gnn.fx.TracerWarning)]
        self.assertEqual(len(said), 1)
        self.assertIn('Python boolean', str(said[0].message))
        self.assertEqual(said[0].filename, __file__)   # points at the forward's line
        rows = [(n.op, n.name, n.target if isinstance(n.target, str) else n.target.__name__)
                for n in traced.graph.nodes]
        # the positive branch, the loop unrolled three times (len (x) == 3), the shape read
        # and x.size (1) as constants, the condition's sum and gt gone as dead code
        self.assertEqual(rows, [('placeholder', 'x', 'x'), ('call_module', 'pos', 'pos'),
                                ('call_function', 'mul', 'mul'), ('call_function', 'mul_1', 'mul'),
                                ('call_function', 'mul_2', 'mul'), ('call_method', 'view', 'view'),
                                ('call_method', 'chunk', 'chunk'),
                                ('call_function', 'getitem', 'getitem'),
                                ('call_function', 'getitem_1', 'getitem'),
                                ('call_method', 'relu', 'relu'), ('call_function', 'add', 'add'),
                                ('output', 'output', 'output')])
        nodes = {n.name: n for n in traced.graph.nodes}
        self.assertEqual(nodes['view'].args, (nodes['mul_2'], 3, 2, 2))
        self.assertEqual(nodes['add'].args, (nodes['getitem_1'], 4))
        # tuple outputs, equal to the model's on the example and to torch's twin
        found = as_numpy(traced(gnn.tensor(x)))
        self.assertEqual(len(found), 2)
        for f, e, t in zip(found, as_numpy(gm(gnn.tensor(x))), as_numpy(tm(torch.tensor(x)))):
            np.testing.assert_array_equal(f, e)
            np.testing.assert_allclose(f, t, rtol=1e-5, atol=1e-6)
        # another input of the same shape taking the same branch: the model's outputs
        other = np.abs(self.rng.standard_normal((3, 4))).astype(np.float32) + 0.5
        for f, e in zip(as_numpy(traced(gnn.tensor(other))), as_numpy(gm(gnn.tensor(other)))):
            np.testing.assert_array_equal(f, e)
        # one that would take the other branch still runs the recorded one, as torch.jit.trace's
        neg = -other
        with warnings.catch_warnings():
            warnings.simplefilter('ignore', torch.jit.TracerWarning)
            ttraced = torch.jit.trace(tm, torch.tensor(x))
        for f, t, e in zip(as_numpy(traced(gnn.tensor(neg))), as_numpy(ttraced(torch.tensor(neg))),
                           as_numpy(gm(gnn.tensor(neg)))):
            np.testing.assert_allclose(f, t, rtol=1e-5, atol=1e-6)
            self.assertFalse(np.array_equal(f, e))
        # a negative example records the other branch
        with warnings.catch_warnings():
            warnings.simplefilter('ignore', gnn.fx.TracerWarning)
            neg_traced = gnn.fx.trace(gm, gnn.tensor(neg))
        self.assertEqual([n.target for n in neg_traced.graph.nodes if n.op == 'call_module'], ['neg'])
        self.assertIn('neg', [n.target.__name__ for n in neg_traced.graph.nodes if n.op == 'call_function'])
        for f, e in zip(as_numpy(neg_traced(gnn.tensor(neg))), as_numpy(gm(gnn.tensor(neg)))):
            np.testing.assert_array_equal(f, e)

    def test_leaves_sequential_and_constants(self):
        seq = gnn.nn.Sequential(gnn.nn.Linear(3, 5), gnn.nn.ReLU(), gnn.nn.Linear(5, 2))
        x = gnn.randn(4, 3)
        traced = gnn.fx.trace(seq, x)
        self.assertEqual([(n.op, n.target) for n in traced.graph.nodes][1:-1],
                         [('call_module', '0'), ('call_module', '1'), ('call_module', '2')])
        np.testing.assert_array_equal(traced(x).detach().numpy(), seq(x).detach().numpy())
        self.assertEqual(list(traced.state_dict().keys()), list(seq.state_dict().keys()))

        class Scaled(gnn.nn.Module):
            def __init__(self):
                super().__init__()
                self.lin = gnn.nn.Linear(3, 3)

            def forward(self, x, scale=None):
                y = self.lin(x) * gnn.tensor([1.0, 2.0, 3.0])
                if scale is not None:   # an input that is no tensor is the example's value
                    y = y * scale
                return y.add_(1)        # an in-place call whose result is the output
        m = Scaled()
        traced = gnn.fx.trace(m, (x,))
        targets = [n.target for n in traced.graph.nodes if n.op in ('get_attr', 'call_method')]
        self.assertEqual(targets, ['_tensor_constant0', 'add_'])
        self.assertEqual([n.name for n in traced.graph.nodes if n.op == 'placeholder'], ['x', 'scale'])
        np.testing.assert_array_equal(traced(x).detach().numpy(), m(x).detach().numpy())
        self.assertEqual(list(traced.state_dict().keys()), ['_tensor_constant0', 'lin.weight', 'lin.bias'])

    def test_submodules_and_python_values(self):
        """A module written in Python inside the traced one is followed, its parameters are
        get_attr nodes of their paths; tensors read as Python numbers are constants and say
        so."""
        class Inner(gnn.nn.Module):
            def __init__(self):
                super().__init__()
                self.scale = gnn.nn.Parameter(gnn.ones(3))

            def forward(self, x):
                return x * self.scale

        class Outer(gnn.nn.Module):
            def __init__(self):
                super().__init__()
                self.inner = Inner()

            def forward(self, x):
                m = x.max().item()
                return self.inner(x).T / m + float(x.sum())

        model = Outer()
        x = gnn.tensor(np.arange(1, 7, dtype=np.float32).reshape(2, 3))
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter('always')
            traced = gnn.fx.trace(model, x)
        said = sorted(str(w.message).split(' might')[0] for w in caught
                      if issubclass(w.category, gnn.fx.TracerWarning))
        self.assertEqual(said, ['Converting a tensor to a Python float',
                                'Converting a tensor to a Python number'])
        rows = [(n.op, n.name, n.target if isinstance(n.target, str) else n.target.__name__)
                for n in traced.graph.nodes]
        self.assertEqual(rows, [('placeholder', 'x', 'x'), ('get_attr', 'inner_scale', 'inner.scale'),
                                ('call_function', 'mul', 'mul'), ('call_function', 'getattr_1', 'getattr'),
                                ('call_function', 'truediv', 'truediv'), ('call_function', 'add', 'add'),
                                ('output', 'output', 'output')])
        nodes = {n.name: n for n in traced.graph.nodes}
        self.assertEqual(nodes['truediv'].args, (nodes['getattr_1'], 6.0))
        self.assertEqual(nodes['add'].args, (nodes['truediv'], 21.0))
        self.assertEqual(list(nodes['getattr_1'].meta['tensor_meta'].shape), [3, 2])
        np.testing.assert_array_equal(traced(x).detach().numpy(), model(x).detach().numpy())
        self.assertEqual(list(traced.state_dict().keys()), ['inner.scale'])

    def test_setitem_is_kept(self):
        """A write into a tensor (y[mask] = v, as torch.jit.trace records copy_) is a node of
        operator.setitem that dead code elimination keeps; the traced module writes too."""
        def make(lib):
            class Masked(lib.nn.Module):
                def __init__(self):
                    super().__init__()
                    self.lin = lib.nn.Linear(3, 3)

                def forward(self, x):
                    y = self.lin(x)
                    y[:, 0] = 0.0
                    y[1] = x[0] * 2
                    return y.relu()
            return Masked()
        tm, gm = make(torch), make(gnn)
        copy_weights(tm, gm)
        x = self.rng.standard_normal((2, 3)).astype(np.float32)
        traced = gnn.fx.trace(gm, gnn.tensor(x))
        targets = [n.target if isinstance(n.target, str) else n.target.__name__
                   for n in traced.graph.nodes if n.op != 'placeholder']
        self.assertEqual(targets, ['lin', 'setitem', 'getitem', 'mul', 'setitem', 'relu', 'output'])
        with torch.no_grad():
            expected = tm(torch.tensor(x)).numpy()
        other = self.rng.standard_normal((2, 3)).astype(np.float32)
        with torch.no_grad():
            expected_other = tm(torch.tensor(other)).numpy()
        with gnn.no_grad():
            found = traced(gnn.tensor(x)).numpy()
            found_other = traced(gnn.tensor(other)).numpy()
        np.testing.assert_allclose(found, expected, rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(found_other, expected_other, rtol=1e-5, atol=1e-6)
        self.assertEqual(found[0, 0], 0.0)

    def test_bad_calls(self):
        gm = make_models(gnn)[0]
        with self.assertRaises(TypeError) as cm:
            gnn.fx.trace(gm, ())
        self.assertIn('forward takes the input x', str(cm.exception))
        with self.assertRaises(TypeError) as cm:
            gnn.fx.trace(gm, (gnn.randn(2, 8), gnn.randn(2, 8)))
        self.assertIn('example_inputs gives 2 values, forward takes 1', str(cm.exception))
        with self.assertRaises(Gnn.fx.TraceError) as cm:
            gnn.fx.trace(gnn.nn.Linear(2, 2), gnn.randn(1, 2))
        self.assertIn('Linear is a module of gnn', str(cm.exception))
        # a failing op is the model's own error, and the tracer's patches are lifted after it
        with self.assertRaises(Exception):
            gnn.fx.trace(gm, gnn.randn(2, 7))
        x = gnn.randn(2, 8)
        self.assertEqual(list(gm(x).shape), [2, 2, 2])
        self.assertIs(Gnn.fx.trace, gnn.fx.trace)

    def test_leaf_with_tuple_output(self):
        """An LSTM (a leaf whose call gives (out, (h, c))) is one call_module node, which the
        unpacking in forward reads with getitem nodes; the outputs are torch's."""
        def make(lib):
            class Recurrent(lib.nn.Module):
                def __init__(self):
                    super().__init__()
                    self.lstm = lib.nn.LSTM(3, 4, batch_first=True)
                    self.fc = lib.nn.Linear(4, 2)

                def forward(self, x):
                    out, (h, c) = self.lstm(x)
                    return self.fc(out[:, -1]), h
            return Recurrent()
        tm, gm = make(torch), make(gnn)
        copy_weights(tm, gm)
        x = self.rng.standard_normal((2, 5, 3)).astype(np.float32)
        traced = gnn.fx.trace(gm, gnn.tensor(x))
        rows = [(n.op, n.target if isinstance(n.target, str) else n.target.__name__)
                for n in traced.graph.nodes]
        self.assertEqual(rows, [('placeholder', 'x'), ('call_module', 'lstm'),
                                ('call_function', 'getitem'), ('call_function', 'getitem'),
                                ('call_function', 'getitem'), ('call_function', 'getitem'),
                                ('call_module', 'fc'), ('output', 'output')])
        nodes = {n.name: n for n in traced.graph.nodes}
        self.assertEqual([list(m.shape) for m in (nodes['lstm'].meta['tensor_meta'][0],)
                          + nodes['lstm'].meta['tensor_meta'][1]], [[2, 5, 4], [1, 2, 4], [1, 2, 4]])
        self.assertEqual(list(traced.state_dict().keys()), list(tm.state_dict().keys()))
        with warnings.catch_warnings():
            warnings.simplefilter('ignore', torch.jit.TracerWarning)   # torch's own LSTM checks
            ttraced = torch.jit.trace(tm, torch.tensor(x))
        for f, e, t in zip(as_numpy(traced(gnn.tensor(x))), as_numpy(gm(gnn.tensor(x))),
                           as_numpy(ttraced(torch.tensor(x)))):
            np.testing.assert_array_equal(f, e)
            np.testing.assert_allclose(f, t, rtol=1e-5, atol=1e-6)


class TestGraphJSON(unittest.TestCase):
    """A traced graph's JSON form (Gnn.Graph.to_json, gnn/io/gnn-graph-json.c) reads back to
    the same graph, shapes included, and a graph module of it runs as the model."""

    def test_round_trip(self):
        gm = make_models(gnn)[1]
        gm.eval()
        x = gnn.randn(2, 1, 6, 6)
        traced = gnn.fx.trace(gm, x)
        text = traced.graph.to_json(False)
        back = Gnn.Graph.new_from_json(text, -1)
        self.assertEqual(str(back), str(traced.graph))
        self.assertEqual(back.to_json(), text)
        self.assertIn('\n', back.to_json(pretty=True))
        self.assertEqual([list(n.get_tensor_meta()[0]) for n in back.nodes],
                         [list(n.meta['tensor_meta'].shape) for n in traced.graph.nodes])
        rebuilt = Gnn.fx.GraphModule(gm, back)
        np.testing.assert_array_equal(rebuilt(x).detach().numpy(), gm(x).detach().numpy())

    def test_refused(self):
        g = Gnn.fx.symbolic_trace(make_models(gnn)[0]).graph
        text = g.to_json(False).replace('{"node":"fc1"}', '{"node":"fc9"}')
        with self.assertRaises(Exception) as cm:
            Gnn.Graph.new_from_json(text, -1)
        self.assertTrue(cm.exception.matches(Gnn.Error.quark(), Gnn.Error.FILE_FORMAT))
        self.assertIn("graph JSON at node 'relu': uses node 'fc9', which the graph does not have",
                      str(cm.exception))


@unittest.skipUnless(Gnn.onnx_is_available(), 'gnn was built without the onnx feature')
class TestONNXExport(unittest.TestCase):
    """gnn.onnx.export of a forward that branches on data, which symbolic_trace refuses,
    records the branch the example inputs take, as torch.onnx.export (torch.jit.trace) does:
    the same ONNX nodes and initializers as torch's file, and onnx's checker passes it."""

    def test_branch_as_torch(self):
        import io
        import onnx
        import gnn.onnx

        def make(lib):
            class Gate(lib.nn.Module):
                def __init__(self):
                    super().__init__()
                    self.a = lib.nn.Linear(4, 3)
                    self.b = lib.nn.Linear(4, 3)

                def forward(self, x):
                    if x.sum() > 0:
                        return lib.relu(self.a(x))
                    return self.b(x)
            return Gate()
        tm, gm = make(torch), make(gnn)
        copy_weights(tm, gm)
        x = np.abs(np.random.default_rng(3).standard_normal((2, 4))).astype(np.float32)
        for sign, ops, weights in ((1, ['Gemm', 'Relu'], ['a.bias', 'a.weight']),
                                   (-1, ['Gemm'], ['b.bias', 'b.weight'])):
            f, tf = io.BytesIO(), io.BytesIO()
            with warnings.catch_warnings():
                warnings.simplefilter('ignore', gnn.fx.TracerWarning)
                warnings.simplefilter('ignore', torch.jit.TracerWarning)
                gnn.onnx.export(gm, (gnn.tensor(sign * x),), f)
                torch.onnx.export(tm, (torch.tensor(sign * x),), tf)
            found, expected = onnx.load_from_string(f.getvalue()), onnx.load_from_string(tf.getvalue())
            onnx.checker.check_model(found, full_check=True)
            self.assertEqual([n.op_type for n in found.graph.node], ops)
            self.assertEqual([n.op_type for n in found.graph.node],
                             [n.op_type for n in expected.graph.node])
            self.assertEqual(sorted(i.name for i in found.graph.initializer), weights)
            self.assertEqual(sorted(i.name for i in found.graph.initializer),
                             sorted(i.name for i in expected.graph.initializer))


if __name__ == '__main__':
    unittest.main()
