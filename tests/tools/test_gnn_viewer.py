#!/usr/bin/python3
"""gnn-viewer from the outside, under xvfb-run (cairo renderer, G_DEBUG=fatal-warnings from the
test environment, no warning on stderr):

- the module tree it shows (read back from its GtkTreeListModel with --dump-tree) is exactly
  named_modules of a model (a shared module listed once) opened from a JSON tree with a
  safetensors state dict, from a checkpoint alone, or from FILE arguments as File > Open does;
- --screenshot writes a PNG of the window's size that is not blank;
- bad input (weights that do not fit, a state dict without a tree, a missing file) exits 2;
- a --train run of 20 steps of the default CNN shows activation and gradient statistics for
  every module, a loss curve of 20 points that starts near ln 10 and falls, and the window kept
  drawing meanwhile;
- an opened model trains from its loaded weights (its first loss is recomputed here), and the
  statistics after one step are those of the outputs and of the logits' gradient, recomputed
  here (a module called twice counts both calls);
- the Sparsity column is the fraction of zeros of each module's own parameters (after pruning),
  blank where a module has none;
- the Type column shows PyTorch's names (Module.get_name: "Conv2d"), the counts are grouped by
  thousands;
- the details pane of --select shows the module's parameters, shapes and histograms of their
  values and (after a step) gradients, every element counted once;
- a file that cannot be read, of many kinds (truncated, lying or huge safetensors headers, bad
  JSON, a folder; GNN_HOSTILE_CORPUS=DIR adds the files of DIR), shows its error in the window
  (a toast: --dump-state lists them), exits 2 and never crashes.

    test_gnn_viewer.py BUILD_DIR/tools/gnn-viewer

Exits with 77 (skipped) when xvfb-run is missing; the training tests are skipped when
Fashion-MNIST is not installed."""
import math
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import unittest
import zlib

import gi
import gi.module
gi.require_version('Gnn', '1.0')
from gi.repository import Gnn, GLib  # noqa: E402

GNN_VIEWER = None
DATA_DIR = '/usr/share/datasets/fashion-mnist'
TMP = None


def viewer_env():
    env = dict(os.environ)
    # the cairo renderer: Xvfb has no GPU, and GL through llvmpipe may or may not work
    env['GSK_RENDERER'] = 'cairo'
    env['GDK_BACKEND'] = 'x11'
    env['GTK_A11Y'] = 'none'
    env['NO_AT_BRIDGE'] = '1'
    env['GSETTINGS_BACKEND'] = 'memory'
    env.pop('DBUS_SESSION_BUS_ADDRESS', None)
    runtime = os.path.join(TMP, 'runtime')
    os.makedirs(runtime, mode=0o700, exist_ok=True)
    env['XDG_RUNTIME_DIR'] = runtime
    env.setdefault('G_DEBUG', 'fatal-warnings')
    return env


def run_viewer(*args, timeout=240):
    cmd = ['xvfb-run', '-a', '-s', '-screen 0 1280x1024x24', GNN_VIEWER,
           '--quit-after-ms', str((timeout - 30) * 1000)] + list(args)
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                          timeout=timeout, env=viewer_env())


def read_png(path):
    """(width, height, rows of pixel tuples) of an 8-bit, non-interlaced RGB or RGBA PNG."""
    with open(path, 'rb') as f:
        data = f.read()
    assert data[:8] == b'\x89PNG\r\n\x1a\n', 'not a PNG'
    pos, idat, header = 8, b'', None
    while pos < len(data):
        length, kind = struct.unpack('>I4s', data[pos:pos + 8])
        chunk = data[pos + 8:pos + 8 + length]
        if kind == b'IHDR':
            header = struct.unpack('>IIBBBBB', chunk)
        elif kind == b'IDAT':
            idat += chunk
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = header
    assert depth == 8 and colour in (2, 6) and interlace == 0, header
    bpp = 4 if colour == 6 else 3
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows, prev, i = [], bytearray(stride), 0
    for _ in range(height):
        ftype, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if ftype == 1:
                line[x] = (line[x] + a) & 255
            elif ftype == 2:
                line[x] = (line[x] + b) & 255
            elif ftype == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif ftype == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return width, height, bpp, rows


def expected_tree(model):
    """named_modules through the C API itself (the Python overrides wrap it), with each module's
    type name as PyTorch prints it (Module.get_name: "Conv2d", not the GType name "GnnConv2d")
    and parameter count."""
    raw = gi.module.get_introspection_module('Gnn').Module
    modules, names = raw.named_modules(model, None, True)
    return [(name, raw.get_name(m), str(sum(p.get_numel() for p in raw.parameters(m, True))))
            for name, m in zip(names, modules)]


def read_tree(path):
    with open(path) as f:
        return [line.rstrip('\n').split('\t') for line in f]


def test_model():
    """A nested model with a module shared twice (named_modules lists it once)."""
    Gnn.manual_seed(5)
    k3 = GLib.Variant('ax', [3, 3])
    block = Gnn.Sequential.new([
        Gnn.Conv2d(in_channels=1, out_channels=4, kernel_size=k3, padding=GLib.Variant('ax', [1, 1])),
        Gnn.BatchNorm2d.new(4), Gnn.ReLU.new()])
    shared = Gnn.Linear.new(16, 16, True)
    heads = Gnn.ModuleDict.new()
    heads.set('logits', Gnn.Linear.new(16, 10, False))
    heads.set('act', Gnn.Tanh.new())
    return Gnn.Sequential.new([block, Gnn.MaxPool2d.new([2, 2], None, None, None, False),
                               Gnn.Flatten.new(1, -1), Gnn.Linear.new(4 * 14 * 14, 16, True),
                               shared, Gnn.ReLU.new(), shared, heads])


class ViewerAsserts:
    def assert_ok(self, r):
        self.assertEqual(r.returncode, 0, 'stdout:\n' + r.stdout + '\nstderr:\n' + r.stderr)
        for level in ('CRITICAL', 'WARNING', 'Gtk-', 'GLib-'):
            self.assertNotIn(level, r.stderr)

    def assert_screenshot(self, r, png):
        self.assertTrue(os.path.isfile(png), r.stdout + r.stderr)
        m = re.search(r'screenshot .*: (\d+)x(\d+)', r.stdout)
        self.assertIsNotNone(m, r.stdout)
        width, height, bpp, rows = read_png(png)
        # the window's size: what it reported, and about the default size asked for
        self.assertEqual((width, height), (int(m.group(1)), int(m.group(2))))
        self.assertGreaterEqual(width, 800)
        self.assertGreaterEqual(height, 500)
        colours = set()
        for row in rows[::3]:
            for x in range(0, width * bpp, bpp * 2):
                colours.add(row[x:x + bpp])
        # text, lines, the header bar: many colours, not one background
        self.assertGreater(len(colours), 30, 'the screenshot looks blank')
        opaque = [row[x + 3] for row in rows[::50] for x in range(0, width * bpp, bpp * 50)] \
            if bpp == 4 else [255]
        self.assertGreater(max(opaque), 0, 'the screenshot is transparent')
        return colours


class ViewerTest(ViewerAsserts, unittest.TestCase):
    def test_json_and_weights(self):
        model = test_model()
        d = tempfile.mkdtemp(dir=TMP)
        json_path, weights, png, tree = (os.path.join(d, n) for n in
                                         ('m.json', 'w.safetensors', 's.png', 't.tsv'))
        with open(json_path, 'w') as f:
            f.write(model.to_json(True))
        Gnn.safetensors_save(model.state_dict(), None, weights)
        r = run_viewer('--model', json_path, '--weights', weights, '--dump-tree', tree,
                       '--screenshot', png)
        self.assert_ok(r)
        want = expected_tree(model)
        self.assertEqual([tuple(row) for row in read_tree(tree)], want)
        self.assertEqual(len(want), 13)      # the shared Linear once
        self.assert_screenshot(r, png)

    def test_checkpoint_alone(self):
        model = test_model()
        d = tempfile.mkdtemp(dir=TMP)
        ckpt, tree = os.path.join(d, 'c.safetensors'), os.path.join(d, 't.tsv')
        Gnn.Checkpoint(model=model).save(ckpt)
        r = run_viewer('--checkpoint', ckpt, '--dump-tree', tree)
        self.assert_ok(r)
        self.assertEqual([tuple(row) for row in read_tree(tree)], expected_tree(model))

    def test_sparsity_column(self):
        """The Sparsity column: the fraction of zeros among each module's own parameters, counted
        here, after pruning made permanent; blank for a module without parameters."""
        import array
        model = test_model()
        raw = gi.module.get_introspection_module('Gnn')
        conv = raw.Module.get_submodule(model, '0.0')
        first = raw.Module.get_submodule(model, '3')
        raw.prune_l1_unstructured(conv, 'weight', 0.5, False, None)
        raw.prune_l1_unstructured(first, 'weight', 1000, True, None)
        raw.prune_remove(conv, 'weight')
        raw.prune_remove(first, 'weight')
        d = tempfile.mkdtemp(dir=TMP)
        ckpt, out = os.path.join(d, 'c.safetensors'), os.path.join(d, 's.tsv')
        Gnn.Checkpoint(model=model).save(ckpt)
        r = run_viewer('--checkpoint', ckpt, '--dump-sparsity', out)
        self.assert_ok(r)
        want = []
        modules, names = raw.Module.named_modules(model, None, True)
        for name, m in zip(names, modules):
            params, _ = raw.Module.named_parameters(m, None, False, False)
            zeros = numel = 0
            for p in params:
                values = array.array('f', p.get_bytes().get_data())
                zeros += sum(1 for v in values if v == 0)
                numel += len(values)
            want.append((name, zeros, numel))
        with open(out) as f:
            rows = [line.rstrip('\n').split('\t') for line in f]
        self.assertEqual([row[0] for row in rows], [w[0] for w in want])
        for row, (name, zeros, numel) in zip(rows, want):
            with self.subTest(module=name):
                if numel == 0:
                    self.assertEqual(row[1:], ['', '', ''])
                    continue
                self.assertEqual((int(row[1]), int(row[2])), (zeros, numel))
                self.assertEqual(row[3].replace(',', '.'), '%.1f %%' % (100 * zeros / numel))
        by_name = {row[0]: row for row in rows}
        self.assertEqual(int(by_name['0.0'][1]), 18 + 0)          # half of the 36 weights; bias 0
        self.assertEqual(int(by_name['3'][1]), 1000)
        self.assertEqual(by_name['2'][1:], ['', '', ''])           # Flatten

    def test_files_as_arguments(self):
        # as File > Open opens them: a JSON tree, then a state dict into it
        model = test_model()
        d = tempfile.mkdtemp(dir=TMP)
        json_path, weights, tree = (os.path.join(d, n) for n in ('m.json', 'w.safetensors', 't.tsv'))
        with open(json_path, 'w') as f:
            f.write(model.to_json(False))
        Gnn.safetensors_save(model.state_dict(), None, weights)
        r = run_viewer(json_path, weights, '--dump-tree', tree)
        self.assert_ok(r)
        self.assertEqual([tuple(row) for row in read_tree(tree)], expected_tree(model))
        r = run_viewer(weights, timeout=60)
        self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
        self.assertIn('holds no module tree', r.stderr)
        r = run_viewer(os.path.join(d, 'model.txt'), timeout=60)
        self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
        self.assertIn('expected a module JSON (.json), a checkpoint or a state dict', r.stderr)

    def test_bad_input(self):
        model = test_model()
        d = tempfile.mkdtemp(dir=TMP)
        json_path, weights = os.path.join(d, 'm.json'), os.path.join(d, 'w.safetensors')
        with open(json_path, 'w') as f:
            f.write(model.to_json(False))
        # weights of another model do not fit
        Gnn.safetensors_save(Gnn.Sequential.new([Gnn.Linear.new(3, 3, True)]).state_dict(), None,
                             weights)
        r = run_viewer('--model', json_path, '--weights', weights, '--dump-tree',
                       os.path.join(d, 't'), timeout=60)
        self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
        self.assertIn(weights, r.stderr)
        r = run_viewer('--weights', weights, timeout=60)
        self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
        self.assertIn('expected --model', r.stderr)
        r = run_viewer('--checkpoint', os.path.join(d, 'none.safetensors'), timeout=60)
        self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
        self.assertIn('none.safetensors', r.stderr)
        # training that cannot run: the window says so, a scripted run exits 1
        r = run_viewer('--train', '--data-dir', d, '--dump-tree', os.path.join(d, 't'), timeout=60)
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        self.assertIn('cannot train: Fashion-MNIST not found: expected train-images-idx3-ubyte.gz', r.stderr)
        if os.path.exists(os.path.join(DATA_DIR, 'train-images-idx3-ubyte.gz')):
            # this model cannot take images (a ModuleDict has no forward)
            r = run_viewer('--model', json_path, '--train', '--train-steps', '2', '--limit', '64',
                           '--dump-tree', os.path.join(d, 't'), timeout=60)
            self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
            self.assertIn('training failed at step 1', r.stderr)

    @unittest.skipUnless(os.path.exists(os.path.join(DATA_DIR, 'train-images-idx3-ubyte.gz')),
                         'Fashion-MNIST is not installed')
    def test_train(self):
        d = tempfile.mkdtemp(dir=TMP)
        png, tree, loss = (os.path.join(d, n) for n in ('s.png', 't.tsv', 'l.tsv'))
        r = run_viewer('--train', '--train-steps', '20', '--limit', '640', '--batch-size', '32',
                       '--threads', '2', '--dump-tree', tree, '--dump-loss', loss, '--screenshot', png)
        self.assert_ok(r)
        rows = read_tree(tree)
        # the default CNN of gnn-train: a Sequential of 13 layers
        types = ['Sequential', 'Conv2d', 'BatchNorm2d', 'ReLU', 'MaxPool2d', 'Conv2d',
                 'BatchNorm2d', 'ReLU', 'MaxPool2d', 'Flatten', 'Linear', 'ReLU',
                 'Dropout', 'Linear']
        self.assertEqual([row[:2] for row in rows],
                         [[''] + types[:1]] + [[str(i), t] for i, t in enumerate(types[1:])])
        self.assertEqual(rows[0][2], str(320 + 64 + 18496 + 128 + 3136 * 128 + 128 + 1290))
        for row in rows:
            self.assertEqual(len(row), 9, row)
            stats = [float(v) for v in row[3:]]     # all present
            act_mean, act_std, act_max, grad_mean, grad_std, grad_max = stats
            for v in stats:
                self.assertTrue(math.isfinite(v), row)
            self.assertGreater(act_std, 0, row)
            self.assertGreaterEqual(act_max, abs(act_mean), row)
            self.assertGreater(grad_max, 0, row)
            self.assertGreaterEqual(grad_max, abs(grad_mean), row)
            if row[1] == 'ReLU':
                self.assertGreaterEqual(act_mean, 0, row)
        # the logits: 10 classes; their gradient is (softmax - onehot) / batch, summing to 0
        self.assertLess(abs(float(rows[-1][6])), 1e-4, rows[-1])
        with open(loss) as f:
            points = [line.split('\t') for line in f.read().splitlines()]
        self.assertEqual([int(p[0]) for p in points], list(range(1, 21)))
        values = [float(p[1]) for p in points]
        self.assertTrue(all(math.isfinite(v) and v > 0 for v in values), values)
        self.assertLess(abs(values[0] - math.log(10)), 0.7, values)   # about ln 10 at the start
        self.assertLess(sum(values[-5:]) / 5, values[0], values)       # and it learns
        # the window kept drawing while it trained: frames between the steps
        m = re.search(r'trained 20 steps: (\d+) frames drawn meanwhile', r.stdout)
        self.assertIsNotNone(m, r.stdout)
        # (steps run on a worker thread: the window draws several frames per step)
        self.assertGreaterEqual(int(m.group(1)), 40, r.stdout)
        self.assert_screenshot(r, png)

    @unittest.skipUnless(os.path.exists(os.path.join(DATA_DIR, 'train-images-idx3-ubyte.gz')),
                         'Fashion-MNIST is not installed')
    def test_train_opened_model(self):
        """The model opened trains, from the weights loaded: its first loss is the loss of those
        weights on the loader's first batch, computed here."""
        Gnn.manual_seed(7)
        model = Gnn.Sequential.new([Gnn.Flatten.new(1, -1), Gnn.Linear.new(784, 32, True), Gnn.ReLU.new(),
                                    Gnn.Linear.new(32, 10, True)])
        d = tempfile.mkdtemp(dir=TMP)
        ckpt, tree, loss = (os.path.join(d, n) for n in ('c.safetensors', 't.tsv', 'l.tsv'))
        Gnn.Checkpoint(model=model).save(ckpt)
        r = run_viewer('--checkpoint', ckpt, '--train', '--train-steps', '4', '--limit', '640',
                       '--batch-size', '32', '--seed', '0', '--dump-tree', tree, '--dump-loss', loss)
        self.assert_ok(r)
        rows = read_tree(tree)
        self.assertEqual([tuple(row[:3]) for row in rows], expected_tree(model))
        self.assertTrue(all(len(row) == 9 and all(row[3:6]) for row in rows), rows)
        # gradients: none reach the output of the Flatten in front (nothing before it needs
        # one, so backward-post never fires for it, as PyTorch's full backward hooks do not)
        self.assertEqual(rows[1][6:], ['', '', ''])
        self.assertTrue(all(all(row[6:]) for i, row in enumerate(rows) if i != 1), rows)
        with open(loss) as f:
            values = [float(line.split('\t')[1]) for line in f.read().splitlines()]
        self.assertEqual(len(values), 4)

        full = Gnn.TensorDataset.new_idx(os.path.join(DATA_DIR, 'train-images-idx3-ubyte.gz'),
                                         os.path.join(DATA_DIR, 'train-labels-idx1-ubyte.gz'))
        part = Gnn.TensorDataset.new([full.get_tensor(0).narrow(0, 0, 640),
                                      full.get_tensor(1).narrow(0, 0, 640)])
        loader = Gnn.DataLoader.new(part, 32, True, 0, False)
        loader.set_transform(Gnn.Normalize.new([0.2860], [0.3530], 1.0 / 255))
        loader.set_epoch(0)
        x, y = loader.get_batch(0)
        first = Gnn.cross_entropy(model(x), y, None, -100, Gnn.Reduction.MEAN, 0.0).item()
        self.assertAlmostEqual(values[0], first, delta=1e-6 * abs(first))

    @unittest.skipUnless(os.path.exists(os.path.join(DATA_DIR, 'train-images-idx3-ubyte.gz')),
                         'Fashion-MNIST is not installed')
    def test_activation_statistics(self):
        """After one step, each module's activation statistics are those of its outputs in that
        step's forward (computed here from the same weights and batch); a module called twice
        counts both outputs."""
        raw = gi.module.get_introspection_module('Gnn')
        Gnn.manual_seed(11)
        flat, fc1, shared, relu, fc2 = (Gnn.Flatten.new(1, -1), Gnn.Linear.new(784, 16, True),
                                        Gnn.Linear.new(16, 16, True), Gnn.ReLU.new(),
                                        Gnn.Linear.new(16, 10, True))
        model = Gnn.Sequential.new([flat, fc1, shared, relu, shared, fc2])
        d = tempfile.mkdtemp(dir=TMP)
        ckpt, tree = os.path.join(d, 'c.safetensors'), os.path.join(d, 't.tsv')
        Gnn.Checkpoint(model=model).save(ckpt)
        r = run_viewer(ckpt, '--train', '--train-steps', '1', '--limit', '64', '--batch-size', '16',
                       '--dump-tree', tree)
        self.assert_ok(r)
        rows = {row[0]: row for row in read_tree(tree)}
        self.assertEqual(sorted(rows), ['', '0', '1', '2', '3', '5'])   # '4' is '2' again

        full = raw.TensorDataset.new_idx(os.path.join(DATA_DIR, 'train-images-idx3-ubyte.gz'),
                                         os.path.join(DATA_DIR, 'train-labels-idx1-ubyte.gz'))
        part = raw.TensorDataset.new([full.get_tensor(0).narrow(0, 0, 64),
                                      full.get_tensor(1).narrow(0, 0, 64)])
        loader = raw.DataLoader.new(part, 16, True, 0, False)
        loader.set_transform(raw.Normalize.new([0.2860], [0.3530], 1.0 / 255))
        loader.set_epoch(0)
        x, labels = loader.get_batch(0)
        labels = list(raw.Tensor.to_int64s(labels))
        outs = {}
        for name, module in (('0', flat), ('1', fc1), ('2', shared), ('3', relu), ('2b', shared),
                             ('5', fc2)):
            x = raw.Module.forward_tensor(module, x)
            outs[name] = list(raw.Tensor.to_doubles(x))
        outs['2'] += outs.pop('2b')
        outs[''] = outs['5']
        for name in ('', '0', '1', '2', '3', '5'):
            values = outs[name]
            n = len(values)
            mean = sum(values) / n
            std = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
            top = max(abs(v) for v in values)
            shown = [float(v) for v in rows[name][3:6]]
            for got, want in zip(shown, (mean, std, top)):
                self.assertAlmostEqual(got, want, delta=1e-3 * abs(want) + 1e-6, msg=(name, shown))
        # the gradient of the logits, the output of the model and of its last layer:
        # (softmax - one-hot) / batch
        grad = []
        for i, label in enumerate(labels):
            row = outs['5'][i * 10:(i + 1) * 10]
            top = max(row)
            e = [math.exp(v - top) for v in row]
            grad += [(v / sum(e) - (1.0 if j == label else 0.0)) / len(labels) for j, v in enumerate(e)]
        n = len(grad)
        mean = sum(grad) / n
        std = math.sqrt(sum((v - mean) ** 2 for v in grad) / (n - 1))
        for name in ('', '5'):
            shown = [float(v) for v in rows[name][6:9]]
            self.assertAlmostEqual(shown[0], mean, delta=1e-6, msg=(name, shown))
            self.assertAlmostEqual(shown[1], std, delta=1e-3 * std, msg=(name, shown))
            self.assertAlmostEqual(shown[2], max(abs(v) for v in grad), delta=1e-3 * std, msg=(name, shown))


def read_state(path):
    """The --dump-state lines: {'page': ..., 'title': ..., 'subtitle': ..., 'selected': ...,
    'message': [...]}"""
    state = {'message': []}
    with open(path) as f:
        for line in f.read().splitlines():
            key, _, value = line.partition('\t')
            if key == 'message':
                state['message'].append(value)
            else:
                state[key] = value
    return state


def hostile_files(d):
    """Files that are not what their names say: (path, what the message must mention)."""
    files = []

    def add(name, data, mention=None):
        path = os.path.join(d, name)
        with open(path, 'wb') as f:
            f.write(data)
        files.append((path, mention))

    add('empty.json', b'')
    add('open.json', b'{"type": "GnnSequential", "children": [')
    add('unknown.json', b'{"type": "NoSuchModule", "properties": {}, "children": []}')
    add('wrong.json', b'{"type": "GnnLinear", "properties": {"in-features": "four"}, "children": []}')
    add('nested.json', b'[' * 500 + b']' * 500)
    add('binary.json', bytes(range(256)) * 8)
    add('empty.safetensors', b'')
    add('short.safetensors', b'\x10\x00')
    add('huge-header.safetensors', struct.pack('<Q', 2 ** 63 - 1) + b'{}')
    add('lying-header.safetensors', struct.pack('<Q', 64) + b'{"w": {"dtype": "F32", "shape": [4]')
    add('past-the-end.safetensors',
        (lambda h: struct.pack('<Q', len(h)) + h)(
            b'{"w": {"dtype": "F32", "shape": [1000000], "data_offsets": [0, 4000000]}}') + b'\0' * 16)
    add('bad-dtype.safetensors',
        (lambda h: struct.pack('<Q', len(h)) + h)(
            b'{"w": {"dtype": "Q7", "shape": [1], "data_offsets": [0, 4]}}') + b'\0' * 4)
    os.mkdir(os.path.join(d, 'folder.json'))
    files.append((os.path.join(d, 'folder.json'), None))
    files.append((os.path.join(d, 'missing.safetensors'), None))
    # more files from elsewhere (a corpus of hostile inputs): GNN_HOSTILE_CORPUS=DIR
    corpus = os.environ.get('GNN_HOSTILE_CORPUS')
    if corpus:
        for name in sorted(os.listdir(corpus)):
            if name.endswith(('.json', '.safetensors')):
                files.append((os.path.join(corpus, name), None))
    return files


class WindowTest(ViewerAsserts, unittest.TestCase):
    def test_hostile_files_show_their_error(self):
        """Every file that cannot be read shows its GError in the window (a toast), says it on
        stderr and exits 2; none crashes the viewer, and the window still shows its page."""
        d = tempfile.mkdtemp(dir=TMP)
        # a model first, so that a state dict has something to load into
        model_json = os.path.join(d, 'model.json')
        with open(model_json, 'w') as f:
            f.write(test_model().to_json(False))
        for path, mention in hostile_files(d):
            state = os.path.join(d, 'state.tsv')
            r = run_viewer(model_json, path, '--dump-state', state, timeout=60)
            with self.subTest(file=os.path.basename(path)):
                self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
                for level in ('CRITICAL', 'Gtk-', 'GLib-', 'Adwaita-'):
                    self.assertNotIn(level, r.stderr)
                shown = read_state(state)
                self.assertEqual(shown['page'], 'modules')
                self.assertEqual(len(shown['message']), 1, shown)
                message = shown['message'][0]
                self.assertIn(os.path.basename(path), message)
                self.assertIn(message, r.stderr)
                # the model opened before is still shown
                self.assertTrue(shown['title'].startswith('model.json'), shown)

    def test_details_pane(self):
        """--select shows a module's parameters: their shapes and the histograms of their
        values (every element counted once) and, after a training step, of their gradients."""
        model = test_model()
        d = tempfile.mkdtemp(dir=TMP)
        json_path, weights = os.path.join(d, 'm.json'), os.path.join(d, 'w.safetensors')
        details, state, png = (os.path.join(d, n) for n in ('d.tsv', 's.tsv', 's.png'))
        with open(json_path, 'w') as f:
            f.write(model.to_json(False))
        Gnn.safetensors_save(model.state_dict(), None, weights)
        r = run_viewer('--model', json_path, '--weights', weights, '--select', '0.0',
                       '--dump-details', details, '--dump-state', state, '--screenshot', png)
        self.assert_ok(r)
        with open(details) as f:
            rows = [line.split('\t') for line in f.read().splitlines()]
        self.assertEqual([row[:3] for row in rows], [['weight', '4,1,3,3', '36'], ['bias', '4', '4']])
        for row in rows:
            counts = [int(c) for c in row[3].split(',')]
            self.assertEqual(len(counts), 32)
            self.assertEqual(sum(counts), int(row[2]))
            self.assertGreater(counts[0], 0)          # the smallest value is in the first bin
            self.assertGreater(counts[-1], 0)         # and the largest in the last
            self.assertEqual(row[4], '')              # no gradient yet
        shown = read_state(state)
        self.assertEqual((shown['page'], shown['selected']), ('modules', '0.0'))
        # counts in the window's format: grouped by thousands (a narrow no-break space in the
        # C locale), the PyTorch type names
        total = sum(p.get_numel() for p in model.parameters())
        grouped = '{:,}'.format(total).replace(',', '\u202f')
        self.assertIn('13 modules · %s parameters' % grouped, shown['subtitle'])
        self.assert_screenshot(r, png)
        self.assertIn('page modules', r.stdout)
        r = run_viewer('--model', json_path, '--page', 'nowhere', '--dump-state', state, timeout=60)
        self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
        self.assertIn('--page: expected modules, training, profile or graph', read_state(state)['message'][0])

    @unittest.skipUnless(os.path.exists(os.path.join(DATA_DIR, 'train-images-idx3-ubyte.gz')),
                         'Fashion-MNIST is not installed')
    def test_details_after_training(self):
        d = tempfile.mkdtemp(dir=TMP)
        details, state = os.path.join(d, 'd.tsv'), os.path.join(d, 's.tsv')
        r = run_viewer('--train', '--train-steps', '2', '--limit', '128', '--batch-size', '64',
                       '--select', '12', '--page', 'training', '--dump-details', details,
                       '--dump-state', state)
        self.assert_ok(r)
        with open(details) as f:
            rows = [line.split('\t') for line in f.read().splitlines()]
        self.assertEqual([row[:3] for row in rows], [['weight', '10,128', '1280'], ['bias', '10', '10']])
        for row in rows:
            for column in (3, 4):                     # values, then gradients
                counts = [int(c) for c in row[column].split(',')]
                self.assertEqual(sum(counts), int(row[2]), row)
        self.assertEqual(read_state(state)['page'], 'training')


if __name__ == '__main__':
    if len(sys.argv) < 2:
        sys.exit('usage: test_gnn_viewer.py BUILD_DIR/tools/gnn-viewer')
    GNN_VIEWER = os.path.abspath(sys.argv.pop(1))
    if shutil.which('xvfb-run') is None:
        print('xvfb-run is missing: skipped')
        sys.exit(77)
    TMP = tempfile.mkdtemp(prefix='gnn-viewer-test-')
    try:
        result = unittest.main(exit=False, verbosity=2).result
    finally:
        shutil.rmtree(TMP, ignore_errors=True)
    sys.exit(0 if result.wasSuccessful() else 1)
