#!/usr/bin/python3
"""gnn-viewer's Graph page from the outside, under xvfb-run (as test_gnn_viewer.py runs it):

- torchvision's resnet18 (weights=None) exported here by torch.onnx.export and opened as a
  FILE shows on the Graph page: one node per graph input, ONNX node and graph output, in the
  file's order, with the op, the edges and the parameter counts the onnx package reads from
  the same file; the layout is layered (each node one layer below the deepest of its inputs,
  a node without inputs just above its first user), top to bottom, no two boxes overlap, and
  a click in the middle of each box finds that node; clicking a Conv lists its initializers
  with their shapes in the side pane;
- the default CNN of gnn-train (a JSON module tree) shows as its children in call order,
  each with its parameters and buffers;
- ONNX files that are truncated or not ONNX at all show their error in the window (a toast
  naming the file), exit 2 and never crash; clicking a node the graph lacks is an error too.

    test_gnn_viewer_graph.py BUILD_DIR/tools/gnn-viewer

Exits with 77 (skipped) when xvfb-run is missing; the resnet18 test is skipped without
torchvision or the onnx package."""
import collections
import os
import shutil
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import test_gnn_viewer as base  # noqa: E402


def read_graph(path):
    out = {'node': [], 'edge': [], 'tensor': []}
    with open(path) as f:
        for line in f.read().splitlines():
            cols = line.split('\t')
            if cols[0] == 'graph':
                out['graph'] = (cols[1],) + tuple(int(c) for c in cols[2:])
            elif cols[0] == 'summary':
                out['summary'] = cols[1]
            elif cols[0] == 'node':
                out['node'].append({'index': int(cols[1]), 'name': cols[2], 'op': cols[3], 'layer': int(cols[4]),
                                    'x': float(cols[5]), 'y': float(cols[6]), 'w': float(cols[7]),
                                    'h': float(cols[8]), 'params': int(cols[9]), 'shape': cols[10],
                                    'inputs': [int(i) for i in cols[11].split(',') if i], 'hit': cols[12]})
            elif cols[0] == 'edge':
                out['edge'].append((cols[1], cols[2]))
            elif cols[0] == 'selected':
                out['selected'] = cols[1:]
            elif cols[0] == 'tensor':
                out['tensor'].append((cols[1], cols[2]))
    return out


class TestGraphPage(unittest.TestCase):

    def check_ok(self, r):
        self.assertEqual(r.returncode, 0, 'stdout:\n' + r.stdout + '\nstderr:\n' + r.stderr)
        for level in ('CRITICAL', 'WARNING', 'Gtk-', 'GLib-'):
            self.assertNotIn(level, r.stderr)

    def check_layout(self, g):
        nodes = g['node']
        users = collections.defaultdict(list)
        for n in nodes:
            for i in n['inputs']:
                users[i].append(n['index'])
        for n in nodes:
            with self.subTest(node=n['name']):
                self.assertEqual(n['hit'], n['name'])      # a click in the middle finds it
                if n['inputs']:
                    self.assertEqual(n['layer'], max(nodes[i]['layer'] for i in n['inputs']) + 1)
                elif users[n['index']]:
                    self.assertEqual(n['layer'], min(nodes[u]['layer'] for u in users[n['index']]) - 1)
                for i in n['inputs']:                      # top to bottom
                    self.assertLess(nodes[i]['y'] + nodes[i]['h'], n['y'])
                self.assertGreaterEqual(n['x'], 0)
                self.assertLessEqual(n['x'] + n['w'], g['graph'][5])
                self.assertLessEqual(n['y'] + n['h'], g['graph'][6])
        boxes = sorted((n['y'], n['x'], n['w'], n['h']) for n in nodes)
        for a in range(len(boxes)):
            for b in range(a + 1, len(boxes)):
                ya, xa, wa, ha = boxes[a]
                yb, xb, wb, hb = boxes[b]
                if yb >= ya + ha:
                    break
                self.assertFalse(xa < xb + wb and xb < xa + wa, (boxes[a], boxes[b]))
        self.assertEqual(g['graph'][3], max(n['layer'] for n in nodes) + 1)
        self.assertEqual(g['graph'][2], len(g['edge']))

    def test_resnet18_onnx(self):
        try:
            import onnx
            import onnx.numpy_helper
            import torch
            import torchvision
        except ImportError as e:
            self.skipTest('needs torch, torchvision and onnx: %s' % e)
        path = os.path.join(base.TMP, 'resnet18.onnx')
        torch.manual_seed(0)
        model = torchvision.models.resnet18(weights=None).eval()
        torch.onnx.export(model, torch.randn(1, 3, 224, 224), path, opset_version=17,
                          input_names=['input'], output_names=['logits'])
        proto = onnx.load(path)
        inits = {t.name: onnx.numpy_helper.to_array(t) for t in proto.graph.initializer}
        inputs = [v for v in proto.graph.input if v.name not in inits]
        names = ([v.name for v in inputs] +
                 [n.name or '%s_%d' % (n.op_type, i) for i, n in enumerate(proto.graph.node)] +
                 [v.name for v in proto.graph.output])
        ops = ['Input'] * len(inputs) + [n.op_type for n in proto.graph.node] + ['Output'] * len(proto.graph.output)
        producer = {v.name: v.name for v in inputs}
        for i, n in enumerate(proto.graph.node):
            for o in n.output:
                producer.setdefault(o, names[len(inputs) + i])
        edges = []
        params = [0] * len(inputs)
        for i, n in enumerate(proto.graph.node):
            seen = []
            for v in n.input:
                if v in producer and v not in inits and producer[v] not in seen:
                    seen.append(producer[v])
            edges += [(p, names[len(inputs) + i]) for p in seen]
            params.append(sum(inits[v].size for v in n.input if v in inits))
        edges += [(producer[v.name], v.name) for v in proto.graph.output]
        params += [0] * len(proto.graph.output)

        conv = '/layer1/layer1.0/conv1/Conv'
        graph, state = os.path.join(base.TMP, 'graph.txt'), os.path.join(base.TMP, 'state.txt')
        r = base.run_viewer(path, '--click-node', conv, '--dump-graph', graph, '--dump-state', state)
        self.check_ok(r)
        self.assertEqual(base.read_state(state)['page'], 'graph')
        self.assertEqual(base.read_state(state)['message'], [])
        g = read_graph(graph)
        self.assertEqual([n['name'] for n in g['node']], names)
        self.assertEqual([n['op'] for n in g['node']], ops)
        self.assertEqual(collections.Counter(ops)['Conv'], 20)
        self.assertEqual(collections.Counter(ops)['Add'], 8)
        self.assertEqual(g['edge'], edges)
        self.assertEqual([n['params'] for n in g['node']], params)
        self.assertEqual(g['graph'][:5], ('resnet18.onnx', len(names), len(edges), g['graph'][3],
                                          sum(a.size for a in inits.values())))
        self.assertEqual(g['node'][0]['shape'], '[1, 3, 224, 224]')
        self.assertEqual(g['node'][-1]['shape'], '[1, 1000]')
        self.check_layout(g)
        # the residual blocks: an Add a layer below both of its inputs, the deeper one its conv
        self.assertGreater(g['graph'][3], 40)
        # the side pane of the Conv clicked: its weight and bias as the file holds them
        node = next(n for n in proto.graph.node if n.name == conv)
        self.assertEqual(g['selected'][:2], [conv, 'Conv — ' + conv])
        self.assertEqual(g['selected'][2], 'shown')
        self.assertEqual(g['tensor'], [(v, str(list(inits[v].shape))) for v in node.input if v in inits])

    def test_default_cnn(self):
        import gnn
        nn = gnn.nn
        model = nn.Sequential(nn.Conv2d(1, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(), nn.MaxPool2d(2),
                              nn.Conv2d(32, 64, 3, padding=1), nn.BatchNorm2d(64), nn.ReLU(), nn.MaxPool2d(2),
                              nn.Flatten(), nn.Linear(64 * 7 * 7, 128), nn.ReLU(), nn.Dropout(0.25),
                              nn.Linear(128, 10))
        path = os.path.join(base.TMP, 'cnn.json')
        with open(path, 'w') as f:
            f.write(model.to_json(False))
        graph = os.path.join(base.TMP, 'cnn-graph.txt')
        r = base.run_viewer('--model', path, '--page', 'graph', '--click-node', '1', '--dump-graph', graph)
        self.check_ok(r)
        g = read_graph(graph)
        types = ['Conv2d', 'BatchNorm2d', 'ReLU', 'MaxPool2d', 'Conv2d', 'BatchNorm2d', 'ReLU', 'MaxPool2d',
                 'Flatten', 'Linear', 'ReLU', 'Dropout', 'Linear']
        self.assertEqual([n['name'] for n in g['node']], ['input'] + [str(i) for i in range(13)] + ['output'])
        self.assertEqual([n['op'] for n in g['node']], ['Input'] + types + ['Output'])
        self.assertEqual([n['params'] for n in g['node']],
                         [0, 320, 64, 0, 0, 18496, 128, 0, 0, 0, 3136 * 128 + 128, 0, 0, 1290, 0])
        self.assertEqual(g['graph'][4], sum(p.numel() for p in model.parameters()))
        self.assertEqual(g['edge'], [(a['name'], b['name']) for a, b in zip(g['node'], g['node'][1:])])
        self.assertEqual([n['layer'] for n in g['node']], list(range(15)))
        self.check_layout(g)
        self.assertEqual(g['selected'][:2], ['1', 'BatchNorm2d — 1'])
        self.assertEqual(g['tensor'], [('1.weight', '[32]'), ('1.bias', '[32]'), ('1.running_mean', '[32]'),
                                       ('1.running_var', '[32]'), ('1.num_batches_tracked', '[]')])

    def test_bad_files(self):
        state = os.path.join(base.TMP, 'bad-state.txt')
        good = os.path.join(base.TMP, 'resnet18.onnx')
        cases = {'garbage.onnx': b'this is not an ONNX file\n' * 10, 'empty.onnx': b''}
        if os.path.exists(good):
            with open(good, 'rb') as f:
                cases['truncated.onnx'] = f.read(5000)
        for name, data in cases.items():
            with self.subTest(file=name):
                path = os.path.join(base.TMP, name)
                with open(path, 'wb') as f:
                    f.write(data)
                r = base.run_viewer(path, '--dump-state', state, timeout=60)
                self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
                messages = base.read_state(state)['message']
                self.assertEqual(len(messages), 1, messages)
                self.assertIn(path, messages[0])
                self.assertIn('ONNX', messages[0])
                self.assertIn(messages[0], r.stderr)
        graph = os.path.join(base.TMP, 'none.txt')
        r = base.run_viewer('--page', 'graph', '--click-node', 'nowhere', '--dump-graph', graph,
                            '--dump-state', state, timeout=60)
        self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
        self.assertEqual(base.read_state(state)['message'], ['--click-node: the graph has no node “nowhere”'])
        self.assertEqual(os.path.getsize(graph), 0)


if __name__ == '__main__':
    if len(sys.argv) < 2:
        sys.exit('usage: test_gnn_viewer_graph.py BUILD_DIR/tools/gnn-viewer')
    base.GNN_VIEWER = os.path.abspath(sys.argv.pop(1))
    if shutil.which('xvfb-run') is None:
        print('xvfb-run is missing: skipped')
        sys.exit(77)
    base.TMP = tempfile.mkdtemp(prefix='gnn-viewer-graph-test-')
    try:
        result = unittest.main(exit=False, verbosity=2).result
    finally:
        shutil.rmtree(base.TMP, ignore_errors=True)
    sys.exit(0 if result.wasSuccessful() else 1)
