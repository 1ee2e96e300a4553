# A graph module (gnn.fx.symbolic_trace, gnn.fx.trace, gnn.onnx.import_model) in the module
# JSON tree (Gnn.Module.to_json / new_from_json) and in a checkpoint (Gnn.Checkpoint.save /
# load_model): rebuilt, in this process and in a fresh one that never traced it, it has the
# same class, graph, state_dict keys and outputs (bit for bit); hostile graph JSON in the tree
# (an unknown target, a missing submodule or tensor, a cycle, deep nesting) is a GLib.Error
#
# SPDX-License-Identifier: LGPL-2.1-or-later
import io
import json
import os
import subprocess
import sys
import tempfile
import unittest
import warnings

import numpy as np

import torch

import gnn
import gnn.fx
from gi.repository import GLib, GObject, Gnn

F = gnn.nn.functional


class MLP(gnn.nn.Module):
    """Linears, gnn's functions, operators, a method and a tensor constant (_tensor_constant0)."""

    def __init__(self):
        super().__init__()
        self.fc1 = gnn.nn.Linear(4, 8)
        self.fc2 = gnn.nn.Linear(8, 2)

    def forward(self, x):
        h = F.relu(self.fc1(x))
        h = gnn.relu(h) + gnn.tensor([0.5] * 8)
        return self.fc2(h * 2).view(-1, 2) - 1


class CNN(gnn.nn.Module):
    def __init__(self):
        super().__init__()
        self.features = gnn.nn.Sequential(gnn.nn.Conv2d(1, 4, 3, padding=1), gnn.nn.BatchNorm2d(4),
                                          gnn.nn.ReLU())
        self.pool = gnn.nn.MaxPool2d(2)
        self.fc = gnn.nn.Linear(4 * 3 * 3, 5)

    def forward(self, x):
        h = self.pool(self.features(x))
        h = h.view(h.size(0), -1)
        return self.fc(h).relu()


class Parts(gnn.nn.Module):
    """getitem of a method's tuple, a shape read, a tuple output."""

    def __init__(self):
        super().__init__()
        self.fc = gnn.nn.Linear(4, 4)

    def forward(self, x):
        parts = self.fc(x).chunk(2, 1)
        return parts[0].relu(), parts[1] * x.size(1)


def example(model):
    gnn.manual_seed(7)
    return gnn.randn(2, 1, 6, 6) if isinstance(model, CNN) else gnn.randn(3, 4)


def graph_modules():
    """(label, graph module, input) for each way of making one; eval, so batch norm is fixed."""
    out = []
    for make in (MLP, CNN, Parts):
        gnn.manual_seed(1)
        model = make()
        x = example(model)
        out.append(('symbolic_trace ' + make.__name__, gnn.fx.symbolic_trace(model), x))
        with warnings.catch_warnings():
            warnings.simplefilter('ignore', gnn.fx.TracerWarning)
            out.append(('trace ' + make.__name__, gnn.fx.trace(model, x), x))
    for _, gm, _ in out:
        gm.eval()
    return out


def onnx_module():
    """(label, graph module, input) of an ONNX model torch exported, imported by gnn."""
    import gnn.onnx
    torch.manual_seed(0)
    tm = torch.nn.Sequential(torch.nn.Conv2d(1, 3, 3), torch.nn.ReLU(), torch.nn.Flatten(),
                             torch.nn.Linear(3 * 4 * 4, 4), torch.nn.Softmax(1))
    tm.eval()
    buf = io.BytesIO()
    torch.onnx.export(tm, (torch.randn(1, 1, 6, 6),), buf, opset_version=17)
    gnn.manual_seed(3)
    return 'onnx import', gnn.onnx.import_model(buf.getvalue()), gnn.randn(1, 1, 6, 6)


def outputs(gm, x):
    with gnn.no_grad():
        out = gm(x)
    return np.stack([t.numpy() for t in out]) if isinstance(out, tuple) else out.numpy()


def keys(m):
    return list(m.state_dict().get_keys())


class TestModuleJSON(unittest.TestCase):
    def check_same(self, back, gm, x, label):
        self.assertIs(type(back), type(gm), label)
        self.assertEqual(repr(back), repr(gm), label)
        self.assertEqual(back.code, gm.code, label)
        self.assertEqual(str(back.graph), str(gm.graph), label)
        self.assertEqual(keys(back), keys(gm), label)
        self.assertFalse(back.training, label)
        np.testing.assert_array_equal(outputs(back, x), outputs(gm, x), err_msg=label)

    def test_round_trip(self):
        for label, gm, x in graph_modules():
            text = gm.to_json(False)
            tree = json.loads(text)
            self.assertEqual(tree['type'], 'GnnFxGraphModule+' + type(gm).__name__, label)
            self.assertEqual(tree['properties']['class-name'], type(gm).__name__, label)
            self.assertEqual(json.loads(tree['properties']['graph-json'])['format'], 'gnn.graph')
            back = Gnn.Module.new_from_json(text, -1)
            back.load_state_dict(gm.state_dict())
            self.check_same(back, gm, x, label)
            self.assertEqual(back.to_json(False), text, label)

    def test_tensor_constant(self):
        gm = graph_modules()[0][1]
        self.assertIn('_tensor_constant0', keys(gm))
        back = Gnn.Module.new_from_json(gm.to_json(False), -1)
        back.load_state_dict(gm.state_dict())
        np.testing.assert_array_equal(back.state_dict().get_tensor('_tensor_constant0').numpy(),
                                      np.full(8, 0.5, np.float32))

    def test_checkpoint(self):
        folder = tempfile.mkdtemp(prefix='gnn-fx-json-')
        for i, (label, gm, x) in enumerate(graph_modules()):
            path = os.path.join(folder, '%d.safetensors' % i)
            Gnn.Checkpoint(model=gm).save(path)
            back = Gnn.Checkpoint.load_model(path)
            self.check_same(back, gm, x, label)

    def test_checkpoint_into_existing_and_copy(self):
        """Gnn.Checkpoint.load into a graph module that exists; copy.deepcopy of a rebuilt one
        (Gnn.Module.copy sets its graph-json property, as the loader does)."""
        import copy
        label, gm, x = graph_modules()[2]
        path = os.path.join(tempfile.mkdtemp(prefix='gnn-fx-json-'), 'c.safetensors')
        Gnn.Checkpoint(model=gm).save(path)
        gnn.manual_seed(5)
        other = gnn.fx.symbolic_trace(CNN())
        other.eval()
        Gnn.Checkpoint(model=other).load(path)
        np.testing.assert_array_equal(outputs(other, x), outputs(gm, x))
        back = Gnn.Checkpoint.load_model(path)
        for m in (gm, back):
            twin = copy.deepcopy(m)
            self.assertIsNot(twin.graph, None)
            self.assertEqual(keys(twin), keys(gm))
            np.testing.assert_array_equal(outputs(twin, x), outputs(gm, x))

    def test_to_and_modes(self):
        label, gm, x = graph_modules()[2]      # symbolic_trace CNN
        back = Gnn.Module.new_from_json(gm.to_json(False), -1)
        back.load_state_dict(gm.state_dict())
        back.train()
        self.assertTrue(all(m.training for m in back.modules()))
        back.eval()
        back.to(gnn.float64)
        gm64 = gnn.fx.symbolic_trace(CNN())
        gm64.load_state_dict(gm.state_dict())
        gm64.eval()
        gm64.to(gnn.float64)
        np.testing.assert_array_equal(outputs(back, x.double()), outputs(gm64, x.double()))
        seen = []
        back.register_forward_hook(lambda m, args, out: seen.append(out.shape))
        outputs(back, x.double())
        self.assertEqual(len(seen), 1)

    def test_fresh_process(self):
        """A process that defines neither model nor traces anything rebuilds the graph module
        from the module JSON (weights from a state dict) and from a checkpoint."""
        folder = tempfile.mkdtemp(prefix='gnn-fx-json-')
        cases = []
        made = graph_modules() + ([onnx_module()] if Gnn.onnx_is_available() else [])
        for i, (label, gm, x) in enumerate(made):
            base = os.path.join(folder, str(i))
            with open(base + '.json', 'w') as f:
                f.write(gm.to_json(True))    # pretty: the loader finds the types in either form
            gnn.save(gm.state_dict(), base + '.weights.safetensors')
            Gnn.Checkpoint(model=gm).save(base + '.ckpt.safetensors')
            np.save(base + '.x.npy', x.numpy())
            cases.append((label, base, outputs(gm, x), [type(gm).__name__, keys(gm)]))
        script = '''
import json, sys
import numpy as np
import gnn
from gi.repository import Gnn
for base in sys.argv[1:]:
    with open(base + '.json') as f:
        m = Gnn.Module.new_from_json(f.read(), -1)
    m.load_state_dict(gnn.load(base + '.weights.safetensors'))
    c = Gnn.Checkpoint.load_model(base + '.ckpt.safetensors')
    x = gnn.tensor(np.load(base + '.x.npy'))
    for tag, model in (('json', m), ('ckpt', c)):
        with gnn.no_grad():
            out = model(x)
        np.save(base + '.' + tag + '.npy',
                np.stack([t.numpy() for t in out]) if isinstance(out, tuple) else out.numpy())
        with open(base + '.' + tag + '.keys', 'w') as f:
            json.dump([type(model).__name__, list(model.state_dict().get_keys())], f)
'''
        subprocess.run([sys.executable, '-c', script] + [c[1] for c in cases], check=True)
        for label, base, expected, expected_keys in cases:
            for tag in ('json', 'ckpt'):
                np.testing.assert_array_equal(np.load(base + '.' + tag + '.npy'), expected,
                                              err_msg=label + ' ' + tag)
                with open(base + '.' + tag + '.keys') as f:
                    self.assertEqual(json.load(f), expected_keys, label + ' ' + tag)

    @unittest.skipUnless(Gnn.onnx_is_available(), 'gnn was built without the onnx feature')
    def test_onnx_import(self):
        label, gm, x = onnx_module()
        text = gm.to_json(False)
        self.assertEqual(json.loads(text)['type'], 'GnnFxGraphModule')
        self.assertEqual(json.loads(text)['properties']['class-name'], 'OnnxModel')
        back = Gnn.Module.new_from_json(text, -1)
        back.load_state_dict(gm.state_dict())
        self.assertEqual(repr(back), repr(gm))
        self.assertEqual(str(back.graph), str(gm.graph))
        self.assertEqual(keys(back), keys(gm))
        np.testing.assert_array_equal(outputs(back, x), outputs(gm, x))


class TestRefused(unittest.TestCase):
    """Graph JSON in a module tree that names what it must not is refused by the loader with a
    GNN_ERROR_FILE_FORMAT naming the node and what it found."""

    def tree(self):
        gm = graph_modules()[0][1]     # symbolic_trace MLP
        return json.loads(gm.to_json(False))

    def refused(self, tree, *needles):
        with self.assertRaises(GLib.Error) as cm:
            Gnn.Module.new_from_json(json.dumps(tree), -1)
        self.assertTrue(cm.exception.matches(Gnn.Error.quark(), Gnn.Error.FILE_FORMAT), cm.exception)
        for needle in needles:
            self.assertIn(needle, cm.exception.message)
        return cm.exception.message

    def edit_graph(self, tree, edit):
        graph = json.loads(tree['properties']['graph-json'])
        edit(graph['nodes'])
        tree['properties']['graph-json'] = json.dumps(graph)
        return tree

    def node(self, nodes, name):
        return next(n for n in nodes if n['name'] == name)

    def test_unknown_targets(self):
        for target in ('os.system', 'builtins.eval', 'gnn._secret', 'gnn.no_such_function',
                       'operator.__dict__', 'gnn.nn.functional.relu#2', 'gnn.Tensor'):
            def edit(nodes, target=target):
                self.node(nodes, 'relu')['target'] = target
            self.refused(self.edit_graph(self.tree(), edit), "node 'relu'",
                         "unknown call_function target '%s'" % target, "the graph module (MLP)")

    def test_private_attributes(self):
        def method(nodes):
            self.node(nodes, 'view')['target'] = '__class__'
        self.refused(self.edit_graph(self.tree(), method), "node 'view'", "'__class__'")

        def getattr_(nodes):
            n = self.node(nodes, 'view')
            n.update(op='call_function', target='builtins.getattr', args=[{'node': 'fc2'}, '__class__'])
        self.refused(self.edit_graph(self.tree(), getattr_), "node 'view'", 'public attribute')

    def test_missing_submodule_and_tensor(self):
        def module(nodes):
            self.node(nodes, 'fc2')['target'] = 'fc9'
        self.refused(self.edit_graph(self.tree(), module), "unknown call_module target 'fc9'")

        def tensor(nodes):
            self.node(nodes, '_tensor_constant0')['target'] = '_tensor_constant7'
        self.refused(self.edit_graph(self.tree(), tensor), "unknown get_attr target '_tensor_constant7'")

        tree = self.tree()
        tree['children'] = [c for c in tree['children'] if c['name'] != 'fc1']
        self.refused(tree, "unknown call_module target 'fc1'")

    def test_cycle_depth_and_garbage(self):
        def cycle(nodes):
            self.node(nodes, 'fc1')['args'] = [{'node': 'relu'}]
        self.refused(self.edit_graph(self.tree(), cycle), 'a cycle')

        tree = self.tree()
        tree['properties']['graph-json'] = '[' * 5000 + ']' * 5000
        self.refused(tree, 'the graph module (MLP)')

        for text, needle in (('not json', 'graph JSON'), ('{}', 'graph JSON'), ('', 'graph JSON'),
                             (None, 'found null')):
            tree = self.tree()
            tree['properties']['graph-json'] = text
            self.refused(tree, 'the graph module (MLP)', needle)

    def test_tensor_argument_when_written(self):
        """A graph whose node holds a tensor argument (not a get_attr node) runs, but its
        module JSON is refused when written, naming the node, rather than written without it."""
        gm = graph_modules()[0][1]
        g = gm.graph
        fc2 = next(n for n in g.nodes if n.name == 'fc2')
        args = Gnn.Args.new()
        for value in (fc2, gnn.ones(2)):
            v = GObject.Value(Gnn.GraphNode if value is fc2 else Gnn.Tensor)
            v.set_object(value)
            args.add_value(v)
        g.erase_node(g.nodes[-1])
        add = g.create_node('call_function', 'operator.add', args, None)
        out = Gnn.Args.new()
        v = GObject.Value(Gnn.GraphNode)
        v.set_object(add)
        out.add_value(v)
        g.output(out)
        g.eliminate_dead_code()
        gm.recompile()
        self.assertEqual(outputs(gm, gnn.ones(1, 4)).shape, (1, 2))
        with self.assertRaises(GLib.Error) as cm:
            gm.to_json(False)
        self.assertIn("node 'add_1': an argument of type GnnTensor has no JSON form", cm.exception.message)
        path = os.path.join(tempfile.mkdtemp(prefix='gnn-fx-json-'), 'c.safetensors')
        with self.assertRaises(GLib.Error) as cm:
            Gnn.Checkpoint(model=gm).save(path)
        self.assertIn("node 'add_1': an argument of type GnnTensor has no JSON form", cm.exception.message)
        self.assertFalse(os.path.exists(path))

    def test_unknown_class(self):
        tree = self.tree()
        tree['type'] = 'GnnFxGraphModule+' + 'X' * 300
        with self.assertRaises(GLib.Error) as cm:
            Gnn.Module.new_from_json(json.dumps(tree), -1)
        self.assertIn('is not registered', cm.exception.message)
        names = ['"type": "GnnFxGraphModule+Many%d"' % i for i in range(1001)]
        with self.assertRaises(GLib.Error) as cm:
            Gnn.Module.new_from_json('[%s]' % ', '.join(names), -1)
        self.assertIn('names 1001 graph module classes not made yet (expected at most 1000)',
                      cm.exception.message)


if __name__ == '__main__':
    unittest.main()
