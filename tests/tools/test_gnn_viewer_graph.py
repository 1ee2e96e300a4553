#!/usr/bin/python3
"""gnn-viewer's Graph page from the outside, under xvfb-run (as test_gnn_viewer.py runs it):

- torchvision's resnet18 (weights=None) exported here by torch.onnx.export and opened as a
  FILE shows on the Graph page: one node per graph input, ONNX node and graph output, in the
  file's order, with the op, the edges and the parameter counts the onnx package reads from
  the same file; the layout is layered (each node one layer below the deepest of its inputs,
  a node without inputs just above its first user), top to bottom, no two boxes overlap, and
  a click in the middle of each box finds that node; clicking a Conv lists its initializers
  with their shapes in the side pane, and the values it takes and makes with theirs;
- every value's shape: torch writes no value_info, so the viewer infers them; each equals the
  shape the onnx package's shape inference finds in the same file (the first Conv's output
  [1, 64, 32, 32] for a 64x64 input, the Flatten's [1, 512]), and so are mobilenet_v2's
  (Constants, Clip, Add, the pools, Flatten, Gemm); with a dynamic batch the
  dim_param's name ("batch") carries through, and shapes a file's value_info gives (names no
  inference would make) are shown as the file says; gnn's own export (value_info for every
  value) shows the shapes of its value_info;
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
            elif cols[0] == 'value':
                out.setdefault('value', []).append(tuple(cols[1:]))
    return out


def shapes_of(proto):
    """value name -> its shape as the viewer writes it ("[batch, 3, 64, 64]", "?" for a dim
    neither sized nor named), from a model's inputs, outputs and value_info"""
    out = {}
    g = proto.graph
    for v in list(g.input) + list(g.output) + list(g.value_info):
        t = v.type.tensor_type
        if t.HasField('shape'):
            dims = [str(d.dim_value) if d.HasField('dim_value') else d.dim_param or '?' for d in t.shape.dim]
            out[v.name] = '[' + ', '.join(dims) + ']'
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
        torch.onnx.export(model, torch.randn(1, 3, 64, 64), path, opset_version=17,
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
        self.assertEqual(g['node'][0]['shape'], '[1, 3, 64, 64]')
        self.assertEqual(g['node'][-1]['shape'], '[1, 1000]')
        self.check_layout(g)
        # the residual blocks: an Add a layer below both of its inputs, the deeper one its conv
        self.assertGreater(g['graph'][3], 40)
        # the side pane of the Conv clicked: its weight and bias as the file holds them
        node = next(n for n in proto.graph.node if n.name == conv)
        self.assertEqual(g['selected'][:2], [conv, 'Conv — ' + conv])
        self.assertEqual(g['selected'][2], 'shown')
        self.assertEqual(g['tensor'], [(v, str(list(inits[v].shape))) for v in node.input if v in inits])
        # ... and the values it takes (the block's input, a bias through an Identity) and makes
        self.assertEqual(len(proto.graph.value_info), 0)
        inferred = shapes_of(onnx.shape_inference.infer_shapes(proto))
        self.assertEqual(g['value'], [('input', v, inferred[v], 'float32') for v in node.input if v not in inits] +
                                     [('output', v, inferred[v], 'float32') for v in node.output])
        self.assertEqual(g['value'][0], ('input', '/maxpool/MaxPool_output_0', '[1, 64, 16, 16]', 'float32'))
        self.assertEqual(g['value'][-1], ('output', conv + '_output_0', '[1, 64, 16, 16]', 'float32'))
        # every node's shape, inferred by the viewer (the file has no value_info), is onnx's
        for n, node in zip(g['node'][len(inputs):], proto.graph.node):
            with self.subTest(node=node.name):
                self.assertEqual(n['shape'], inferred[node.output[0]])
        by_name = {n['name']: n['shape'] for n in g['node']}
        self.assertEqual(by_name['/conv1/Conv'], '[1, 64, 32, 32]')
        self.assertEqual(by_name['/Flatten'], '[1, 512]')
        self.assertEqual(by_name['/fc/Gemm'], '[1, 1000]')

    def test_mobilenet_v2_shapes(self):
        try:
            import onnx
            import torch
            import torchvision
        except ImportError as e:
            self.skipTest('needs torch, torchvision and onnx: %s' % e)
        # Conv, Clip between Constants, Add, GlobalAveragePool, Flatten, Gemm: every shape onnx's
        path = os.path.join(base.TMP, 'mobilenet_v2.onnx')
        model = torchvision.models.mobilenet_v2(weights=None).eval()
        torch.onnx.export(model, torch.randn(1, 3, 64, 64), path, opset_version=17)
        proto = onnx.load(path)
        inferred = shapes_of(onnx.shape_inference.infer_shapes(proto))
        graph = os.path.join(base.TMP, 'mobilenet-graph.txt')
        r = base.run_viewer(path, '--dump-graph', graph)
        self.check_ok(r)
        g = read_graph(graph)
        first = len(g['node']) - len(proto.graph.node) - len(proto.graph.output)
        self.assertEqual([n['name'] for n in g['node'][first:first + 2]],
                         [n.name for n in proto.graph.node[:2]])
        for n, node in zip(g['node'][first:], proto.graph.node):
            with self.subTest(node=node.name):
                self.assertEqual(n['shape'], inferred[node.output[0]])

    def test_dim_param(self):
        try:
            import onnx
            import onnx.helper
            import torch
            import torchvision
        except ImportError as e:
            self.skipTest('needs torch, torchvision and onnx: %s' % e)
        path = os.path.join(base.TMP, 'resnet18-batch.onnx')
        model = torchvision.models.resnet18(weights=None).eval()
        torch.onnx.export(model, torch.randn(1, 3, 64, 64), path, opset_version=17, input_names=['input'],
                          output_names=['logits'], dynamic_axes={'input': {0: 'batch'}, 'logits': {0: 'batch'}})
        proto = onnx.load(path)
        inferred = shapes_of(onnx.shape_inference.infer_shapes(proto))
        # a value_info entry with names no inference makes: shown as the file says
        conv2 = next(n for n in proto.graph.node if n.name == '/layer1/layer1.0/conv2/Conv')
        vi = onnx.helper.make_tensor_value_info(conv2.output[0], onnx.TensorProto.FLOAT, ['batch', 64, 'h', 'w'])
        proto.graph.value_info.append(vi)
        onnx.save(proto, path)
        graph = os.path.join(base.TMP, 'batch-graph.txt')
        r = base.run_viewer(path, '--click-node', '/layer1/layer1.0/Add', '--dump-graph', graph)
        self.check_ok(r)
        g = read_graph(graph)
        by_name = {n['name']: n['shape'] for n in g['node']}
        self.assertEqual(by_name['input'], '[batch, 3, 64, 64]')
        self.assertEqual(by_name['/conv1/Conv'], '[batch, 64, 32, 32]')
        self.assertEqual(by_name['/Flatten'], '[batch, 512]')
        self.assertEqual(by_name['/fc/Gemm'], '[batch, 1000]')
        self.assertEqual(by_name['logits'], '[batch, 1000]')
        self.assertEqual(by_name[conv2.name], '[batch, 64, h, w]')
        # the Add of [batch, 64, h, w] and [batch, 64, 16, 16] broadcasts to the sizes
        self.assertEqual(g['value'], [('input', conv2.output[0], '[batch, 64, h, w]', 'float32'),
                                      ('input', '/maxpool/MaxPool_output_0', '[batch, 64, 16, 16]', 'float32'),
                                      ('output', '/layer1/layer1.0/Add_output_0', '[batch, 64, 16, 16]', 'float32')])
        # elsewhere each known dim is onnx's (which may leave a dim or a shape unknown)
        for n, node in zip(g['node'][1:], proto.graph.node):
            want = inferred.get(node.output[0])
            if want is None or node.name in (conv2.name, '/layer1/layer1.0/Add'):
                continue
            with self.subTest(node=node.name):
                got, want = n['shape'][1:-1].split(', '), want[1:-1].split(', ')
                self.assertEqual(len(got), len(want))
                for a, b in zip(got, want):
                    if b != '?':
                        self.assertEqual(a, b)

    def test_gnn_export_value_info(self):
        try:
            import onnx
        except ImportError as e:
            self.skipTest('needs onnx: %s' % e)
        import gnn
        nn = gnn.nn
        model = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(),
                              nn.Linear(8 * 4 * 4, 10)).eval()
        path = os.path.join(base.TMP, 'gnn-cnn.onnx')
        gnn.onnx.export(model, (gnn.randn(2, 1, 8, 8),), path)
        proto = onnx.load(path)
        declared = shapes_of(proto)
        self.assertGreater(len(proto.graph.value_info), 0)
        graph = os.path.join(base.TMP, 'gnn-cnn-graph.txt')
        r = base.run_viewer(path, '--dump-graph', graph)
        self.check_ok(r)
        g = read_graph(graph)
        first = len(g['node']) - len(proto.graph.node) - len(proto.graph.output)
        for n, node in zip(g['node'][first:], proto.graph.node):
            with self.subTest(node=n['name']):
                self.assertEqual(n['shape'], declared[node.output[0]])
        self.assertIn('[2, 8, 8, 8]', [n['shape'] for n in g['node']])
        self.assertEqual(g['node'][-1]['shape'], '[2, 10]')

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
