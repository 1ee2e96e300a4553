# torch.onnx.export over gnn (gnn/onnx/gnn-onnx.c, gi/overrides/_gnn/onnx.py): what gnn writes
# passes onnx's own checker (full_check) and runs in ONNX Runtime (the CPU runtime of the npm
# package onnxruntime-node, installed in the build folder from tests/onnx/package-lock.json)
# to the outputs gnn and torch 1.13 compute with the same weights
#
# SPDX-License-Identifier: LGPL-2.1-or-later
import json
import os
import subprocess
import sys
import tempfile
import unittest

import numpy as np
import onnx
import onnx.numpy_helper
import torch

import gnn
from gi.repository import GLib, Gnn

# --onnxruntime DIR: the node_modules folder holding onnxruntime-node (tests/python/meson.build)
ORT_DIR = None
if '--onnxruntime' in sys.argv:
    i = sys.argv.index('--onnxruntime')
    ORT_DIR = sys.argv[i + 1]
    del sys.argv[i:i + 2]
RUNNER = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'onnx', 'run-ort.js')
HAVE_ORT = bool(ORT_DIR and os.path.isdir(os.path.join(ORT_DIR, 'onnxruntime-node')))


def run_ort(path, feeds):
    """The outputs of ONNX Runtime for the model at path, by output name."""
    with tempfile.TemporaryDirectory() as d:
        inp, out = os.path.join(d, 'in.json'), os.path.join(d, 'out.json')
        with open(inp, 'w') as f:
            json.dump({k: {'dims': list(v.shape), 'type': 'int64', 'data': v.ravel().tolist()}
                       if v.dtype == np.int64 else
                       {'dims': list(v.shape), 'data': v.astype(np.float32).ravel().tolist()}
                       for k, v in feeds.items()}, f)
        env = dict(os.environ, NODE_PATH=ORT_DIR)
        subprocess.run(['node', RUNNER, path, inp, out], check=True, env=env)
        with open(out) as f:
            return {k: np.array(v['data'], np.float32).reshape(v['dims']) for k, v in json.load(f).items()}


def copy_weights(tm, gm):
    gm.load_state_dict({k: gnn.tensor(v.detach().numpy()) for k, v in tm.state_dict().items()})


def models(lib):
    nn = lib.nn
    F = nn.functional

    class Mixed(nn.Module):
        """functions, methods, operators with numbers and a parameter used directly"""
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(6, 4)
            self.w = nn.Parameter(lib.randn(4, 4))

        def forward(self, x):
            h = F.relu(self.fc(x.view(-1, 6))) * 0.5 + 1
            h = h @ self.w
            return F.softmax(h.sigmoid() - 0.25, 1), h.reshape(-1, 2, 2).tanh()

    cnn = nn.Sequential(   # gnn-train's default model
        nn.Conv2d(1, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(32, 64, 3, padding=1), nn.BatchNorm2d(64), nn.ReLU(), nn.MaxPool2d(2),
        nn.Flatten(), nn.Linear(64 * 7 * 7, 128), nn.ReLU(), nn.Dropout(0.25), nn.Linear(128, 10))
    small = nn.Sequential(
        nn.Conv2d(3, 8, 3, stride=2, padding=1, bias=False),
        nn.BatchNorm2d(8), nn.LeakyReLU(0.1), nn.AvgPool2d(2), nn.Conv2d(8, 8, 3, padding='same', groups=2),
        nn.ELU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 5), nn.LogSoftmax(1))
    return {
        'mlp': (nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 16), nn.Tanh(), nn.Linear(16, 3)),
                [(5, 4)]),
        'cnn': (cnn, [(2, 1, 28, 28)]),
        'small': (small, [(2, 3, 16, 16)]),
        'mixed': (Mixed(), [(3, 6)]),
        'linear-3d': (nn.Linear(5, 2), [(2, 3, 5)]),
    }


class TestExport(unittest.TestCase):
    def export(self, gm, inputs, **kw):
        d = tempfile.mkdtemp()
        self.addCleanup(lambda: subprocess.run(['rm', '-rf', d]))
        path = os.path.join(d, 'model.onnx')
        gnn.onnx.export(gm, tuple(gnn.tensor(x) for x in inputs), path, **kw)
        model = onnx.load(path)
        onnx.checker.check_model(model, full_check=True)
        return path, model

    def test_models_as_torch(self):
        torch.manual_seed(0)
        tms, gms = models(torch), models(gnn)
        for name, (tm, shapes) in tms.items():
            with self.subTest(model=name):
                gm = gms[name][0]
                copy_weights(tm, gm)
                if name in ('cnn', 'small'):    # running statistics worth folding
                    tm.train()
                    with torch.no_grad():
                        tm(torch.randn(*shapes[0]) * 2 + 0.5)
                    copy_weights(tm, gm)
                tm.eval()
                gm.train()        # export is for inference: the model is switched to eval
                inputs = [np.random.RandomState(1).randn(*s).astype(np.float32) for s in shapes]
                path, model = self.export(gm, inputs)
                self.assertTrue(gm.training)   # its mode is restored
                self.assertEqual(model.opset_import[0].version, 17)
                self.assertEqual(model.producer_name, 'gnn')
                # initializers under torch's state-dict keys, holding the same numbers
                inits = {i.name: onnx.numpy_helper.to_array(i) for i in model.graph.initializer}
                for key, value in tm.state_dict().items():
                    if key.endswith('num_batches_tracked'):
                        continue
                    self.assertIn(key, inits)
                    self.assertTrue(np.array_equal(inits[key], value.numpy()), key)
                gm.eval()
                expected = tm(*[torch.from_numpy(x) for x in inputs])
                expected = [e.detach().numpy() for e in (expected if isinstance(expected, tuple) else (expected,))]
                found = gm(*[gnn.tensor(x) for x in inputs])
                found = [f.numpy() for f in (found if isinstance(found, tuple) else (found,))]
                for f, e in zip(found, expected):
                    self.assertTrue(np.allclose(f, e, rtol=1e-5, atol=1e-5))
                if not HAVE_ORT:
                    continue
                outs = run_ort(path, {i.name: x for i, x in zip(model.graph.input, inputs)})
                self.assertEqual(list(outs), [o.name for o in model.graph.output])
                for o, f, e in zip(model.graph.output, found, expected):
                    got = outs[o.name]
                    self.assertEqual(got.shape, e.shape)
                    # rel 1e-5 as the issue asks; abs 1e-5 for values near zero after a
                    # 3136-term dot product, whose summation order differs between runtimes
                    self.assertTrue(np.allclose(got, e, rtol=1e-5, atol=1e-5), (name, abs(got - e).max()))
                    self.assertTrue(np.allclose(got, f, rtol=1e-5, atol=1e-5))

    @unittest.skipUnless(HAVE_ORT, 'ONNX Runtime (onnxruntime-node) is not installed in the build folder')
    def test_dynamic_axes_and_names(self):
        gm = models(gnn)['cnn'][0]
        x = np.random.RandomState(2).randn(2, 1, 28, 28).astype(np.float32)
        path, model = self.export(gm, [x], input_names=['image'], output_names=['logits'],
                                  dynamic_axes={'image': {0: 'batch'}, 'logits': [0]})
        self.assertEqual([i.name for i in model.graph.input], ['image'])
        self.assertEqual([o.name for o in model.graph.output], ['logits'])
        self.assertEqual(model.graph.input[0].type.tensor_type.shape.dim[0].dim_param, 'batch')
        self.assertEqual(model.graph.output[0].type.tensor_type.shape.dim[0].dim_param,
                         'logits_dynamic_axes_1')
        x5 = np.random.RandomState(3).randn(5, 1, 28, 28).astype(np.float32)
        gm.eval()
        out = run_ort(path, {'image': x5})['logits']
        self.assertTrue(np.allclose(out, gm(gnn.tensor(x5)).numpy(), rtol=1e-5, atol=1e-5))

    def test_file_object(self):
        import io
        buf = io.BytesIO()
        gnn.onnx.export(gnn.nn.Linear(3, 2), gnn.randn(1, 3), buf)
        model = onnx.load_from_string(buf.getvalue())
        onnx.checker.check_model(model, full_check=True)
        self.assertEqual([n.op_type for n in model.graph.node], ['Gemm'])
        self.assertEqual(sorted(i.name for i in model.graph.initializer), ['bias', 'weight'])


class TestErrors(unittest.TestCase):
    def test_refusals(self):
        d = tempfile.mkdtemp()
        self.addCleanup(lambda: subprocess.run(['rm', '-rf', d]))
        path = os.path.join(d, 'm.onnx')
        with open(path, 'wb') as f:
            f.write(b'old')
        x = gnn.randn(2, 4)
        cases = [
            (gnn.nn.Sequential(gnn.nn.Linear(4, 4), gnn.optim.swa_utils.AveragedModel(gnn.nn.Linear(4, 4))), {},
             "node _1 calls 1, a AveragedModel, which has no ONNX form"),
            (gnn.nn.Linear(4, 4), {'opset_version': 18}, 'opset 18 is out of range: gnn writes opsets 13 to 17'),
            (gnn.nn.Linear(4, 4), {'opset_version': 12}, 'opset 12 is out of range'),
            (gnn.nn.Linear(4, 4), {'input_names': ['a', 'b']}, '2 input names for 1 inputs'),
        ]
        for model, kw, message in cases:
            with self.subTest(message=message):
                with self.assertRaises(GLib.GError) as cm:
                    gnn.onnx.export(model, x, path, **kw)
                self.assertIn(message, cm.exception.message)
                with open(path, 'rb') as f:      # a failed export leaves the file as it was
                    self.assertEqual(f.read(), b'old')
        with self.assertRaises(GLib.GError) as cm:
            gnn.onnx.export(gnn.nn.Linear(4, 4), x, os.path.join(d, 'no', 'm.onnx'))
        self.assertIn(os.path.join(d, 'no', 'm.onnx'), cm.exception.message)

        class Calls(gnn.nn.Module):
            def forward(self, x):
                return gnn.cumprod(x, 1)
        with self.assertRaises(GLib.GError) as cm:
            gnn.onnx.export(Calls(), x, path)
        self.assertIn('node cumprod calls gnn.cumprod, which has no ONNX form', cm.exception.message)
        with self.assertRaises(TypeError):
            gnn.onnx.export(gnn.nn.Linear(4, 4), x, path, dynamic_axes={'input': 0})

    def test_c_api_needs_shapes(self):
        gm = Gnn.fx.symbolic_trace(gnn.nn.Sequential(gnn.nn.Linear(4, 2)))
        with self.assertRaises(GLib.GError) as cm:
            Gnn.onnx_export(gm.graph, gm, None, None, None, 17, os.path.join(tempfile.gettempdir(), 'never.onnx'))
        self.assertIn('node input_1 has no shape and dtype: run shape propagation', cm.exception.message)
        with self.assertRaises(GLib.GError) as cm:
            Gnn.onnx_export(gm.graph, gm, None, None, GLib.Variant('a{si}', {}), 17, '/tmp/never.onnx')
        self.assertIn('dynamic_axes must be of type a{sa{is}}, not a{si}', cm.exception.message)
        self.assertTrue(Gnn.onnx_is_available())



def torch_bytes(model, x, **kw):
    import io
    buf = io.BytesIO()
    model.eval()
    torch.onnx.export(model, (x,), buf, opset_version=kw.pop('opset_version', 17), **kw)
    return buf.getvalue()


def close(found, expected, rtol=1e-5):
    """within rtol of the largest magnitude expected (deep random-weight nets give outputs
    near zero, where an elementwise relative bound says nothing)"""
    scale = max(float(np.abs(expected).max()), 1e-30)
    return float(np.abs(found - expected).max()) <= rtol * scale


class TestImport(unittest.TestCase):
    def test_torch_models(self):
        import torchvision
        torch.manual_seed(0)
        cases = {
            'mlp': (models(torch)['mlp'][0], (5, 4)),
            'cnn': (models(torch)['cnn'][0], (2, 1, 28, 28)),
            'resnet18': (torchvision.models.resnet18(weights=None), (1, 3, 64, 64)),
            'mobilenet_v2': (torchvision.models.mobilenet_v2(weights=None), (1, 3, 64, 64)),
        }
        for name, (tm, shape) in cases.items():
            for opset in (13, 17):
                with self.subTest(model=name, opset=opset):
                    x = torch.randn(*shape)
                    gm = gnn.onnx.import_model(torch_bytes(tm, x, opset_version=opset))
                    self.assertIsInstance(gm, gnn.fx.GraphModule)
                    expected = tm(x).detach().numpy()
                    found = gm(gnn.tensor(x.numpy())).numpy()
                    self.assertEqual(found.shape, expected.shape)
                    self.assertTrue(close(found, expected), (name, abs(found - expected).max()))
        # named parameters: torch's state-dict keys where the export kept them
        tm = models(torch)['mlp'][0]
        gm = gnn.onnx.import_model(torch_bytes(tm, torch.randn(1, 4)))
        self.assertEqual(sorted(gm.state_dict()), sorted(tm.state_dict()))
        self.assertEqual(sorted(n for n, _ in gm.named_parameters()), sorted(tm.state_dict()))
        for k, v in tm.state_dict().items():
            self.assertTrue(np.array_equal(gm.state_dict()[k].numpy(), v.numpy()))

    def test_round_trip(self):
        # gnn -> ONNX -> gnn: the mixed module's functions, methods and operators
        gm = models(gnn)['mixed'][0]
        x = gnn.randn(3, 6)
        d = tempfile.mkdtemp()
        self.addCleanup(lambda: subprocess.run(['rm', '-rf', d]))
        path = os.path.join(d, 'mixed.onnx')
        gnn.onnx.export(gm, x, path, output_names=['probs', 'h'])
        back = gnn.onnx.import_model(path)
        for a, b in zip(back(x), gm(x)):
            self.assertTrue(np.allclose(a.numpy(), b.numpy(), rtol=1e-6, atol=1e-7))
        with open(path, 'rb') as f:
            again = gnn.onnx.import_model(f)
        # the module's tensors under their keys, and the constants the export wrote
        self.assertTrue(set(gm.state_dict()) <= set(again.state_dict()))
        self.assertIn('view_shape', again.state_dict())

    def test_unsupported_operator(self):
        class Largest(torch.nn.Module):
            def forward(self, x):
                return torch.argmax(x, 1)
        with self.assertRaises(NotImplementedError) as cm:
            gnn.onnx.import_model(torch_bytes(Largest(), torch.randn(2, 3)))
        self.assertIn('is a ArgMax', str(cm.exception))


def field(number, payload):
    """one length-delimited protobuf field"""
    key, n = bytearray(), (number << 3) | 2
    out = bytearray()
    for v in (n, len(payload)):
        while True:
            b = v & 0x7f
            v >>= 7
            out.append(b | (0x80 if v else 0))
            if not v:
                break
    return bytes(out) + payload


class TestHostileFiles(unittest.TestCase):
    def good(self):
        from onnx import helper, TensorProto
        w = helper.make_tensor('w', TensorProto.FLOAT, [2, 2], [1.0, 2.0, 3.0, 4.0])
        node = helper.make_node('MatMul', ['x', 'w'], ['y'], name='mm')
        graph = helper.make_graph([node], 'g', [helper.make_tensor_value_info('x', TensorProto.FLOAT, [1, 2])],
                                  [helper.make_tensor_value_info('y', TensorProto.FLOAT, [1, 2])], [w])
        return helper.make_model(graph, opset_imports=[helper.make_opsetid('', 17)])

    def refused(self, data, message):
        with self.assertRaises(GLib.GError) as cm:
            gnn.onnx.import_model(bytes(data))
        self.assertIn(message, cm.exception.message)

    def test_good_model_runs(self):
        gm = gnn.onnx.import_model(self.good().SerializeToString())
        y = gm(gnn.tensor([[1.0, 1.0]])).numpy()
        self.assertTrue(np.array_equal(y, np.array([[4.0, 6.0]], np.float32)))

    def test_truncated_and_garbage(self):
        data = self.good().SerializeToString()
        for n in range(1, len(data) - 1, 7):
            with self.subTest(length=n):
                with self.assertRaises(GLib.GError):
                    gnn.onnx.import_model(data[:n])
        self.refused(b'', 'the file is empty')
        self.refused(b'\x0f\xff\xff', 'ONNX file:')
        self.refused(os.urandom(0) + b'\x7a\x05abc', 'truncated or corrupt')

    def test_nesting_bomb(self):
        # graph -> node -> attribute (g) -> graph ... 10,000 levels: refused before parsing
        inner = b''
        for _ in range(10000):
            attr = field(1, b'then_branch') + field(6, inner)   # AttributeProto.name, .g
            node = field(5, attr)                              # NodeProto.attribute
            inner = field(1, node)                             # GraphProto.node
        self.refused(field(7, inner), 'nested deeper than 64 levels')

    def test_bad_tensors(self):
        from onnx import TensorProto
        m = self.good()
        m.graph.initializer[0].raw_data = b'\0' * 12
        del m.graph.initializer[0].float_data[:]
        self.refused(m.SerializeToString(), "has 12 bytes of raw_data; its dims and type need 16")
        m = self.good()
        m.graph.initializer[0].dims[:] = [2 ** 40, 2 ** 40]
        self.refused(m.SerializeToString(), 'dims that are negative or too large')
        m = self.good()
        m.graph.initializer[0].dims[:] = [2, -2]
        self.refused(m.SerializeToString(), 'dims that are negative or too large')
        m = self.good()
        m.graph.initializer[0].data_location = TensorProto.EXTERNAL
        entry = m.graph.initializer[0].external_data.add()
        entry.key, entry.value = 'location', '../../etc/passwd'
        self.refused(m.SerializeToString(), 'keeps its data in an external file')
        m = self.good()
        m.graph.initializer[0].float_data.append(5.0)
        self.refused(m.SerializeToString(), 'holds 5 values; its dims need 4')

    def test_bad_graphs(self):
        m = self.good()
        m.graph.node[0].input[0] = 'nowhere'
        self.refused(m.SerializeToString(), "node mm (MatMul) uses 'nowhere', which no input")
        m = self.good()
        m.graph.node[0].input[0] = 'y'       # its own output: a cycle
        self.refused(m.SerializeToString(), "uses 'y'")
        m = self.good()
        m.graph.output[0].name = 'z'
        self.refused(m.SerializeToString(), "the output 'z' is not defined")
        m = self.good()
        m.opset_import[0].version = 18
        self.refused(m.SerializeToString(), 'opset 18 of the default domain')
        m = self.good()
        m.graph.node.add().CopyFrom(m.graph.node[0])
        self.refused(m.SerializeToString(), "defines 'y' a second time")

    def test_file_errors_name_the_path(self):
        with self.assertRaises(GLib.GError) as cm:
            gnn.onnx.import_model('/nonexistent/model.onnx')
        self.assertIn('/nonexistent/model.onnx', cm.exception.message)


def form_cases(lib):
    """layers and functions that the forms of doc/onnx.md cover: (module, input shape or an
    int64 input)"""
    nn = lib.nn

    class Functions(nn.Module):
        def forward(self, x):
            a = lib.cat([x, x * 2.0], 1)
            b = a.transpose(0, 1).permute(1, 0)
            return b.mean(1, keepdim=True) + b.sum(dim=(0, 1)) + x.mean() + lib.permute(a, (1, 0)).sum(0).sum()

    class GeluFns(nn.Module):
        def forward(self, x):
            return nn.functional.gelu(x) + nn.functional.gelu(x, approximate='tanh') + x.t().t().erf()

    return {
        'gelu': (nn.GELU(), (3, 5)),
        'gelu-tanh': (nn.GELU(approximate='tanh'), (3, 5)),
        'layernorm': (nn.Sequential(nn.Linear(6, 6), nn.LayerNorm(6)), (2, 4, 6)),
        'layernorm-2d-plain': (nn.LayerNorm((3, 4), elementwise_affine=False), (2, 3, 4)),
        'relu6-hardtanh': (nn.Sequential(nn.Linear(4, 8), nn.ReLU6(), nn.Hardtanh(-0.5, 0.75)), (3, 4)),
        'silu': (nn.SiLU(), (3, 5)),
        'hardswish-hardsigmoid': (nn.Sequential(nn.Linear(4, 8), nn.Hardswish(), nn.Linear(8, 8),
                                                nn.Hardsigmoid()), (3, 4)),
        'conv1d': (nn.Sequential(nn.Conv1d(3, 4, 3, stride=2, padding=1), nn.ReLU(),
                                 nn.Conv1d(4, 2, 2, dilation=2, padding=2, groups=2)), (2, 3, 10)),
        'conv1d-same': (nn.Conv1d(3, 2, 4, dilation=2, padding='same', bias=False), (2, 3, 10)),
        'convtranspose2d': (nn.Sequential(nn.ConvTranspose2d(2, 4, 3, stride=2, padding=1, output_padding=1),
                                          nn.ConvTranspose2d(4, 2, 2, groups=2)), (1, 2, 5, 5)),
        'embedding': (nn.Embedding(10, 4), 'int64'),
        'pads-2d': (nn.Sequential(nn.ConstantPad2d((1, 2, 0, 3), 1.5), nn.ZeroPad2d(1), nn.ReflectionPad2d((2, 1, 1, 2)),
                                  nn.ReplicationPad2d(1)), (2, 3, 5, 5)),
        'pads-1d-3d': (nn.Sequential(nn.ConstantPad3d(1, -1.0), nn.ReflectionPad3d(1), nn.ReplicationPad3d((1, 0, 0, 1, 2, 0)),
                                     nn.Flatten(2), nn.ConstantPad1d((0, 2), 2.0), nn.ReflectionPad1d(3),
                                     nn.ReplicationPad1d((2, 1))), (1, 2, 3, 3, 3)),
        'pools-1d': (nn.Sequential(nn.MaxPool1d(3, stride=2, padding=1), nn.AvgPool1d(2, ceil_mode=True),
                                   nn.Conv1d(3, 4, 1), nn.AdaptiveAvgPool1d(2)), (2, 3, 16)),
        'pool-1d-global-unflatten-rrelu': (nn.Sequential(nn.AdaptiveAvgPool1d(1), nn.Flatten(), nn.Unflatten(1, (1, 3)),
                                                         nn.RReLU()), (2, 3, 8)),
        'selu-celu-softplus': (nn.Sequential(nn.SELU(), nn.CELU(0.7), nn.Softplus(), nn.Softplus(beta=2.0)), (3, 5)),
        'shrinks': (nn.Sequential(nn.Hardshrink(0.3), nn.Softshrink(0.2), nn.Tanhshrink()), (3, 5)),
        'softmax2d-softmin-logsigmoid': (nn.Sequential(nn.Softmax2d(), nn.Softmin(1), nn.LogSigmoid()), (2, 3, 4, 4)),
        'prelu': (nn.Sequential(nn.Conv2d(2, 3, 1), nn.PReLU(3), nn.Flatten(), nn.PReLU()), (2, 2, 3, 3)),
        'functions': (Functions(), (3, 4)),
        'gelu-functions': (GeluFns(), (4, 4)),
    }


class TestForms(unittest.TestCase):
    """each form both ways: gnn -> ONNX -> ONNX Runtime against torch with the same weights,
    and torch.onnx.export (opset 17) -> gnn.onnx.import_model against torch"""

    def inputs(self, spec):
        rs = np.random.RandomState(5)
        if spec == 'int64':
            return rs.randint(0, 10, size=(3, 7)).astype(np.int64)
        return rs.randn(*spec).astype(np.float32)

    def test_export(self):
        torch.manual_seed(1)
        tms, gms = form_cases(torch), form_cases(gnn)
        d = tempfile.mkdtemp()
        self.addCleanup(lambda: subprocess.run(['rm', '-rf', d]))
        for name, (tm, spec) in tms.items():
            with self.subTest(form=name):
                gm = gms[name][0]
                copy_weights(tm, gm)
                tm.eval()
                x = self.inputs(spec)
                path = os.path.join(d, name + '.onnx')
                gnn.onnx.export(gm, gnn.tensor(x), path)
                model = onnx.load(path)
                onnx.checker.check_model(model, full_check=True)
                expected = tm(torch.from_numpy(x)).detach().numpy()
                gm.eval()
                found = gm(gnn.tensor(x)).numpy()
                self.assertTrue(np.allclose(found, expected, rtol=1e-5, atol=1e-6), (name, abs(found - expected).max()))
                if not HAVE_ORT:
                    continue
                got = run_ort(path, {model.graph.input[0].name: x})[model.graph.output[0].name]
                self.assertEqual(got.shape, expected.shape)
                # abs 1e-5: the Erf/Tanh arithmetic of GELU is written out in a few float32
                # steps, whose rounding differs from torch's fused kernel by a few ulps
                self.assertTrue(np.allclose(got, expected, rtol=1e-5, atol=1e-5), (name, abs(got - expected).max()))

    # what torch 1.13's own export cannot write, checked one way only
    TORCH_CANNOT = {
        'layernorm-2d-plain': 'torch writes LayerNormalization without its scale, which its checker refuses',
        'conv1d-same': "torch has no ONNX form of padding='same' (aten::_convolution_mode)",
        'pool-1d-global-unflatten-rrelu': 'torch has no ONNX form of aten::unflatten',
    }

    def test_import(self):
        torch.manual_seed(2)
        for name, (tm, spec) in form_cases(torch).items():
            if name in self.TORCH_CANNOT:
                continue
            with self.subTest(form=name):
                x = self.inputs(spec)
                gm = gnn.onnx.import_model(torch_bytes(tm, torch.from_numpy(x)))
                expected = tm(torch.from_numpy(x)).detach().numpy()
                found = gm(gnn.tensor(x)).numpy()
                self.assertEqual(found.shape, expected.shape)
                self.assertTrue(close(found, expected), (name, abs(found - expected).max()))


class TestRecurrentImport(unittest.TestCase):
    """torch 1.13's export of LSTM and GRU (ONNX's LSTM and GRU operators, with the gates
    reordered: i, o, f, c and z, r, h) read into gnn: the output sequence and the last hidden
    state equal torch's"""

    def test_lstm_gru(self):
        torch.manual_seed(3)
        cases = {
            'lstm-2-layers': torch.nn.LSTM(3, 4, num_layers=2),
            'lstm-bidirectional-batch-first': torch.nn.LSTM(3, 4, batch_first=True, bidirectional=True),
            'gru': torch.nn.GRU(3, 4),
            'gru-2-layers-bidirectional': torch.nn.GRU(3, 4, num_layers=2, batch_first=True, bidirectional=True),
            'rnn-tanh': torch.nn.RNN(3, 4),
            'rnn-relu-2-layers-bidirectional': torch.nn.RNN(3, 4, nonlinearity='relu', num_layers=2, bidirectional=True),
        }
        for name, m in cases.items():
            class Outputs(torch.nn.Module):
                def __init__(self):
                    super().__init__()
                    self.m = m

                def forward(self, x):
                    y, h = self.m(x)
                    return y, (h[0] if isinstance(h, tuple) else h)
            for opset in (14, 17):
                with self.subTest(model=name, opset=opset):
                    tm = Outputs().eval()
                    x = torch.randn(5, 2, 3)
                    buf = torch_bytes(tm, x, opset_version=opset)
                    ops = {n.op_type for n in onnx.load_from_string(buf).graph.node}
                    self.assertTrue({'LSTM', 'GRU', 'RNN'} & ops, ops)
                    gm = gnn.onnx.import_model(buf)
                    for f, e in zip(gm(gnn.tensor(x.numpy())), tm(x)):
                        e = e.detach().numpy()
                        self.assertEqual(f.numpy().shape, e.shape)
                        self.assertTrue(np.allclose(f.numpy(), e, rtol=1e-5, atol=1e-6), (name, abs(f.numpy() - e).max()))

    def test_refused_forms(self):
        from onnx import helper, TensorProto
        W = helper.make_tensor('W', TensorProto.FLOAT, [1, 16, 3], [0.1] * 48)
        R = helper.make_tensor('R', TensorProto.FLOAT, [1, 16, 4], [0.1] * 64)
        node = helper.make_node('LSTM', ['x', 'W', 'R'], ['y'], name='rnn', hidden_size=4, clip=3.0)
        graph = helper.make_graph([node], 'g', [helper.make_tensor_value_info('x', TensorProto.FLOAT, [2, 1, 3])],
                                  [helper.make_tensor_value_info('y', TensorProto.FLOAT, [2, 1, 1, 4])], [W, R])
        with self.assertRaises(NotImplementedError) as cm:
            gnn.onnx.import_model(helper.make_model(graph, opset_imports=[helper.make_opsetid('', 17)])
                                  .SerializeToString())
        self.assertIn("node rnn is a LSTM with clip, which gnn's importer does not compute", str(cm.exception))
        node = graph.node[0]
        del node.attribute[:]
        node.attribute.extend([helper.make_attribute('hidden_size', 4),
                               helper.make_attribute('activations', ['Relu', 'Tanh', 'Tanh'])])
        with self.assertRaises(NotImplementedError) as cm:
            gnn.onnx.import_model(helper.make_model(graph, opset_imports=[helper.make_opsetid('', 17)])
                                  .SerializeToString())
        self.assertIn("node rnn is a LSTM with activations ['Relu', 'Tanh', 'Tanh']", str(cm.exception))


def recurrent_model(lib, kind, **kw):
    """a module calling LSTM or GRU and returning the output sequence and the last states"""
    class Recurrent(lib.nn.Module):
        def __init__(self):
            super().__init__()
            self.rnn = getattr(lib.nn, kind)(3, 4, **kw)

        def forward(self, x):
            out = self.rnn(x)
            if kind == 'LSTM':
                return out[0], out[1][0], out[1][1]
            return out[0], out[1] * 1.0
    return Recurrent()


class TestRecurrentExport(unittest.TestCase):
    """gnn's LSTM and GRU written as ONNX LSTM and GRU (one per layer, gates reordered) run in
    ONNX Runtime to torch's outputs and states with the same weights"""

    def test_lstm_gru(self):
        torch.manual_seed(6)
        d = tempfile.mkdtemp()
        self.addCleanup(lambda: subprocess.run(['rm', '-rf', d]))
        cases = [('LSTM', {'num_layers': 2}), ('LSTM', {'batch_first': True, 'bidirectional': True}),
                 ('GRU', {}), ('GRU', {'num_layers': 2, 'bidirectional': True, 'bias': False}),
                 ('RNN', {}), ('RNN', {'nonlinearity': 'relu', 'num_layers': 2, 'bidirectional': True})]
        for kind, kw in cases:
            with self.subTest(kind=kind, options=kw):
                tm, gm = recurrent_model(torch, kind, **kw), recurrent_model(gnn, kind, **kw)
                copy_weights(tm, gm)
                tm.eval()
                x = np.random.RandomState(7).randn(5, 2, 3).astype(np.float32)
                path = os.path.join(d, 'rnn.onnx')
                gnn.onnx.export(gm, gnn.tensor(x), path)
                model = onnx.load(path)
                onnx.checker.check_model(model, full_check=True)
                self.assertEqual(sum(n.op_type == kind for n in model.graph.node), kw.get('num_layers', 1))
                expected = [e.detach().numpy() for e in tm(torch.from_numpy(x))]
                if HAVE_ORT:
                    outs = run_ort(path, {model.graph.input[0].name: x})
                    for o, e in zip(model.graph.output, expected):
                        got = outs[o.name]
                        self.assertEqual(got.shape, e.shape)
                        self.assertTrue(np.allclose(got, e, rtol=1e-5, atol=1e-6), (kind, o.name, abs(got - e).max()))
                # and back: gnn's importer reads gnn's export to the same numbers
                back = gnn.onnx.import_model(path)
                for f, e in zip(back(gnn.tensor(x)), expected):
                    self.assertTrue(np.allclose(f.numpy(), e, rtol=1e-5, atol=1e-6))

    def test_refusals(self):
        d = tempfile.mkdtemp()
        self.addCleanup(lambda: subprocess.run(['rm', '-rf', d]))
        # an LSTM alone returns its tuple's tensors (output, h_n, c_n), as torch writes them
        gnn.onnx.export(gnn.nn.LSTM(3, 4), gnn.randn(5, 2, 3), os.path.join(d, 'm.onnx'))
        self.assertEqual(len(onnx.load(os.path.join(d, 'm.onnx')).graph.output), 3)


def stateful_model(lib, kind, state, **kw):
    """a module calling LSTM, GRU or RNN with or without its initial states (graph inputs)"""
    class Recurrent(lib.nn.Module):
        def __init__(self):
            super().__init__()
            self.rnn = getattr(lib.nn, kind)(3, 4, **kw)

        def run(self, x, *states):
            if kind == 'LSTM':
                out = self.rnn(x, (states[0], states[1])) if states else self.rnn(x)
                return out[0], out[1][0], out[1][1]
            out = self.rnn(x, states[0]) if states else self.rnn(x)
            return out[0], out[1] * 1.0

    class Plain(Recurrent):
        def forward(self, x):
            return self.run(x)

    class WithH(Recurrent):
        def forward(self, x, h):
            return self.run(x, h)

    class WithHC(Recurrent):
        def forward(self, x, h, c):
            return self.run(x, h, c)
    return (WithHC if kind == 'LSTM' else WithH)() if state else Plain()


class TestRecurrentStateExport(unittest.TestCase):
    """initial states given to LSTM, GRU and RNN (graph inputs, each layer's rows as ONNX's
    initial_h and initial_c), unbatched inputs, and LSTM with proj_size (unrolled over the traced
    sequence, as ONNX's LSTM has no projection): ONNX Runtime and gnn's importer give torch's
    outputs and last states for the same weights and states"""

    def test_states_and_projections(self):
        d = tempfile.mkdtemp()
        self.addCleanup(lambda: subprocess.run(['rm', '-rf', d]))
        cases = [('LSTM', True, False, {'num_layers': 2}),
                 ('LSTM', False, False, {'proj_size': 2}),
                 ('LSTM', True, False, {'proj_size': 2, 'num_layers': 2, 'bidirectional': True, 'batch_first': True}),
                 ('LSTM', True, True, {'proj_size': 3, 'bias': False}),
                 ('GRU', True, False, {'num_layers': 2, 'bidirectional': True}),
                 ('GRU', True, True, {}),
                 ('RNN', True, False, {'nonlinearity': 'relu', 'batch_first': True}),
                 ('LSTM', False, True, {'bidirectional': True})]
        for kind, state, unbatched, kw in cases:
            with self.subTest(kind=kind, state=state, unbatched=unbatched, options=kw):
                torch.manual_seed(8)
                tm, gm = stateful_model(torch, kind, state, **kw), stateful_model(gnn, kind, state, **kw)
                copy_weights(tm, gm)
                tm.eval()
                rs = np.random.RandomState(9)
                dirs, layers = 2 if kw.get('bidirectional') else 1, kw.get('num_layers', 1)
                batch = () if unbatched else (2,)
                xs = (5,) + batch + (3,) if unbatched or not kw.get('batch_first') else (2, 5, 3)
                args = [rs.randn(*xs).astype(np.float32)]
                if state:
                    args.append(rs.randn(layers * dirs, *batch, kw.get('proj_size') or 4).astype(np.float32))
                    if kind == 'LSTM':
                        args.append(rs.randn(layers * dirs, *batch, 4).astype(np.float32))
                path = os.path.join(d, 'rnn.onnx')
                gnn.onnx.export(gm, tuple(gnn.tensor(a) for a in args), path)
                model = onnx.load(path)
                onnx.checker.check_model(model, full_check=True)
                ops = {n.op_type for n in model.graph.node}
                self.assertEqual(kind in ops, not kw.get('proj_size'))
                expected = [e.detach().numpy() for e in tm(*[torch.from_numpy(a) for a in args])]
                if HAVE_ORT:
                    outs = run_ort(path, {i.name: a for i, a in zip(model.graph.input, args)})
                    for o, e in zip(model.graph.output, expected):
                        got = outs[o.name]
                        self.assertEqual(got.shape, e.shape)
                        self.assertTrue(np.allclose(got, e, rtol=1e-5, atol=1e-6), (o.name, abs(got - e).max()))
                back = gnn.onnx.import_model(path)
                for f, e in zip(back(*[gnn.tensor(a) for a in args]), expected):
                    self.assertEqual(tuple(f.shape), e.shape)
                    self.assertTrue(np.allclose(f.numpy(), e, rtol=1e-5, atol=1e-6))

    def test_torch_exports_with_states(self):
        # torch 1.13's export of an LSTM and a GRU given initial states reads into gnn
        for kind, kw in [('LSTM', {'num_layers': 2}), ('GRU', {'bidirectional': True})]:
            with self.subTest(kind=kind):
                torch.manual_seed(10)
                tm = stateful_model(torch, kind, True, **kw).eval()
                dirs, layers = 2 if kw.get('bidirectional') else 1, kw.get('num_layers', 1)
                args = [torch.randn(5, 2, 3)] + [torch.randn(layers * dirs, 2, 4)
                                                 for _ in range(2 if kind == 'LSTM' else 1)]
                import io
                buf = io.BytesIO()
                torch.onnx.export(tm, tuple(args), buf, opset_version=17)
                back = gnn.onnx.import_model(buf.getvalue())
                for f, e in zip(back(*[gnn.tensor(a.numpy()) for a in args]), tm(*args)):
                    self.assertTrue(np.allclose(f.numpy(), e.detach().numpy(), rtol=1e-5, atol=1e-6))


def function_cases(lib):
    """functions and methods of one or two tensors with an ONNX form of one or a few operators"""
    F = lib.nn.functional
    return {
        'trig': lambda x, y: (x.tan() + lib.asin(x * 0.5) + (x * 0.4).acos() + lib.atan(y) + x.sinh() + lib.cosh(x) +
                              x.asinh() + lib.acosh(x.abs() + 1.5) + lib.atanh(x * 0.5) + x.sin() + lib.cos(y)),
        'sign_round': lambda x, y: x.sign() + lib.round(x * 3),
        'pow_max_min': lambda x, y: (x.pow(2) + x ** 3 + lib.pow(x.abs() + 0.5, y) + lib.maximum(x, y) -
                                     lib.minimum(x, y) + 2 ** x),
        'compare_where': lambda x, y: (lib.where(x > y, x, y) + lib.where(x <= 0.1, 1.0, y) + lib.where(x == y, x, 0.0) +
                                       lib.where(x != y, y, 2.0) + lib.where(lib.ge(x, y), x, y * 2) +
                                       lib.where(x < y, x, y)),
        'fmod_remainder': lambda x, y: (lib.fmod(x, 0.7) + lib.remainder(x, 0.7) + lib.remainder(x, -0.6) +
                                        lib.fmod(x, y) + lib.remainder(x, y)),
        'floor_divide': lambda x, y: lib.floor_divide(x, 0.7) + lib.floor_divide(x, y),
        # log1p and expm1 are Log (1 + x) and Exp - 1: inputs away from 0, where those keep float32 accuracy
        'composed': lambda x, y: (lib.rsqrt(x.abs() + 1) + lib.log1p(x.abs() + 0.1) + (x.abs() + 0.1).expm1() +
                                  lib.log2(x.abs() + 1) + lib.log10(x.abs() + 1) + F.mish(x) + lib.exp2(x) +
                                  F.silu(y) + F.softsign(y)),
        'hypot_lerp_addc': lambda x, y: (lib.hypot(x, y) + lib.lerp(x, y, 0.3) + lib.lerp(x, y, y.sigmoid()) +
                                         lib.addcmul(x, x, y, value=0.5) + lib.addcdiv(x, x, y.abs() + 1)),
        'clamp_threshold': lambda x, y: (lib.clamp(x, -0.5, 0.5) + lib.clamp(x, min=0.1) + lib.clamp(y, max=0.2) +
                                         x.clamp(-1, 1) + F.threshold(x, 0.1, 2.0)),
        'cumsum': lambda x, y: lib.cumsum(x, 1) + y.cumsum(dim=0),
        'amax_amin': lambda x, y: lib.amax(x, 1, keepdim=True) + lib.amin(y, dim=(0, 1)) + x.amax(0, keepdim=True),
        'logaddexp_heaviside': lambda x, y: (lib.logaddexp(x, y) + lib.logaddexp2(x * 3, y) + lib.heaviside(lib.round(x), y) +
                                             lib.xlogy(lib.round(x), y.abs()) + lib.copysign(x, y)),
        'fmax_fmin_atan2': lambda x, y: (lib.fmax(x, lib.where(y > 0.5, y * float('nan'), y)) + lib.fmin(x, y) +
                                         # zeros made +0.0: a -0.0 has no sign ONNX can see (atan2 (-0.0, -1) is -pi)
                                         lib.atan2(y, x) + lib.atan2(lib.where(lib.round(y) == 0, 0.0, lib.round(y)),
                                                                     lib.where(lib.round(x) == 0, 0.0, lib.round(x)))),
        'trunc_frac_sinc': lambda x, y: lib.trunc(x * 3) + lib.frac(x * 3) + lib.sinc(lib.round(x)) + lib.sinc(y),
        'logical': lambda x, y: lib.where(lib.logical_and(x > 0, y > 0) | lib.logical_or(x, lib.round(y)) ^
                                          lib.logical_not(lib.round(x)) & ~(y > 0.3), x, y),
    }


class TestFunctionExport(unittest.TestCase):
    """the functions gnn's exporter writes as ONNX operators (Tan ... Atanh, Sign, Round, Pow,
    Max, Min, the comparisons, Where, Mod, CumSum, Clip) or their compositions (rsqrt, log1p,
    expm1, log2, log10, exp2, mish, silu, hypot, lerp, addcmul, addcdiv, remainder,
    floor_divide, threshold): onnx's checker passes, ONNX Runtime gives torch's outputs for the
    same inputs, gnn's importer reads the file back to them, and torch's own export (where torch
    1.13 writes one) imports into gnn to them"""

    def test_functions(self):
        d = tempfile.mkdtemp()
        self.addCleanup(lambda: subprocess.run(['rm', '-rf', d]))
        rs = np.random.RandomState(3)
        x, y = rs.randn(3, 4).astype(np.float32), rs.randn(3, 4).astype(np.float32)
        torch_written = 0
        for key in function_cases(gnn):
            with self.subTest(case=key):
                class G(gnn.nn.Module):
                    def forward(self, a, b):
                        return function_cases(gnn)[key](a, b)

                class Twin(torch.nn.Module):
                    def forward(self, a, b):
                        return function_cases(torch)[key](a, b)
                path = os.path.join(d, key + '.onnx')
                gnn.onnx.export(G(), (gnn.tensor(x), gnn.tensor(y)), path)
                model = onnx.load(path)
                onnx.checker.check_model(model, full_check=True)
                expected = Twin()(torch.from_numpy(x), torch.from_numpy(y)).numpy()
                if HAVE_ORT:
                    got = run_ort(path, {model.graph.input[0].name: x, model.graph.input[1].name: y})
                    got = got[model.graph.output[0].name]
                    self.assertTrue(np.allclose(got, expected, rtol=1e-5, atol=1e-6), abs(got - expected).max())
                back = gnn.onnx.import_model(path)(gnn.tensor(x), gnn.tensor(y)).numpy()
                self.assertTrue(np.allclose(back, expected, rtol=1e-5, atol=1e-6), abs(back - expected).max())
                import io
                buf = io.BytesIO()
                if key == 'floor_divide':
                    continue   # torch 1.13 writes it as a truncation (Cast to int64 and back), not its floor
                try:
                    torch.onnx.export(Twin(), (torch.from_numpy(x), torch.from_numpy(y)), buf, opset_version=17)
                except Exception:   # torch 1.13 writes no form of this one
                    continue
                torch_written += 1
                back = gnn.onnx.import_model(buf.getvalue())(gnn.tensor(x), gnn.tensor(y)).numpy()
                self.assertTrue(np.allclose(back, expected, rtol=1e-5, atol=1e-6), abs(back - expected).max())
        self.assertGreaterEqual(torch_written, 5)


def EmbeddingBags(lib):
    class Bags(lib.nn.Module):
        def __init__(self):
            super().__init__()
            self.sum = lib.nn.EmbeddingBag(6, 3, mode='sum')
            self.mean = lib.nn.EmbeddingBag(6, 3)
            self.max = lib.nn.EmbeddingBag(6, 3, mode='max')

        def forward(self, x):
            return self.sum(x) + self.mean(x) * self.max(x)
    return Bags()


def more_layer_cases(lib):
    """3-d convolutions, pools and batch norm, the adaptive pools, the dropouts of inference,
    instance norms, the shuffles, LPPool and LocalResponseNorm, in small models"""
    nn = lib.nn
    return {
        'conv3d': (nn.Sequential(nn.Conv3d(2, 4, 3, stride=(1, 2, 1), padding=1), nn.BatchNorm3d(4), nn.ReLU(),
                                 nn.MaxPool3d(2), nn.Conv3d(4, 3, 2, padding='same', bias=False)), (2, 2, 6, 8, 6)),
        'conv_transpose3d': (nn.Sequential(nn.ConvTranspose3d(2, 3, 3, stride=2, padding=1, output_padding=1),
                                           nn.AvgPool3d(2, stride=1, padding=1, count_include_pad=False)),
                             (1, 2, 3, 4, 3)),
        'adaptive_pools': (nn.Sequential(nn.AdaptiveAvgPool3d((2, 2, 3)), nn.Flatten(1, 2), nn.AdaptiveMaxPool2d((1, 3)),
                                         nn.Flatten(2), nn.AdaptiveMaxPool1d(1)), (2, 3, 4, 4, 6)),
        'global_and_dropouts': (nn.Sequential(nn.AdaptiveMaxPool3d(1), nn.Flatten(), nn.Dropout3d(), nn.AlphaDropout(0.2),
                                              nn.FeatureAlphaDropout(0.2)), (2, 3, 4, 4, 6)),
        'instance_norms': (nn.Sequential(nn.InstanceNorm2d(3, affine=True), nn.InstanceNorm2d(3), nn.Flatten(2),
                                         nn.InstanceNorm1d(3, track_running_stats=True)), (2, 3, 5, 4)),
        'instance_norm3d': (nn.InstanceNorm3d(3, affine=True), (2, 3, 3, 4, 2)),
        'shuffles': (nn.Sequential(nn.PixelShuffle(2), nn.ChannelShuffle(2), nn.PixelUnshuffle(2), nn.Conv2d(8, 4, 1)),
                     (2, 8, 3, 4)),
        'lp_pools': (nn.Sequential(nn.LPPool2d(2, 2), nn.Flatten(2), nn.LPPool1d(3, 2, stride=1)), (2, 3, 6, 8)),
        'local_response_norms': (nn.Sequential(nn.LocalResponseNorm(3), nn.LocalResponseNorm(4, alpha=0.01, beta=0.5, k=2.0),
                                               nn.Flatten(2), nn.LocalResponseNorm(2)), (2, 6, 3, 4)),
        'upsample_2d': (nn.Sequential(nn.Upsample(scale_factor=2), nn.Upsample(scale_factor=1.5, mode='bilinear'),
                                      nn.UpsamplingBilinear2d(scale_factor=2), nn.Upsample(size=(7, 9), mode='bilinear'),
                                      nn.UpsamplingNearest2d(size=(10, 12)),
                                      nn.Upsample(scale_factor=(1.5, 2), mode='bilinear', align_corners=True)),
                        (1, 2, 3, 4)),
        'unfold_fold': (nn.Sequential(nn.Unfold((2, 3), padding=1, stride=(1, 2)),
                                      nn.Fold((5, 7), (2, 3), padding=1, stride=(1, 2)),
                                      nn.Unfold(2, dilation=2, stride=2), nn.Fold((6, 8), 2, dilation=2, stride=2)),
                        (2, 3, 5, 7)),
        'embedding_bags': (EmbeddingBags(lib), 'int64'),
        'upsample_1d': (nn.Sequential(nn.Upsample(scale_factor=2, mode='linear'), nn.Upsample(size=7)), (2, 2, 5)),
        'upsample_3d': (nn.Sequential(nn.Upsample(scale_factor=2, mode='trilinear'), nn.Upsample(scale_factor=(1, 2, 1))),
                        (1, 2, 2, 3, 2)),
    }


class TestMoreLayerExport(unittest.TestCase):
    """the forms of more_layer_cases: onnx's checker passes, ONNX Runtime gives torch's outputs
    for the same weights (and running statistics, in eval mode), gnn's importer reads the file
    back to them, and torch 1.13's own export (where it writes one) imports into gnn to them"""

    def test_layers(self):
        d = tempfile.mkdtemp()
        self.addCleanup(lambda: subprocess.run(['rm', '-rf', d]))
        rs = np.random.RandomState(3)
        torch_written = 0
        for key, (gm, shape) in more_layer_cases(gnn).items():
            with self.subTest(case=key):
                torch.manual_seed(0)
                tm = more_layer_cases(torch)[key][0]
                if key == 'instance_norms':   # running statistics that are not the initial ones
                    tm.train()
                    tm(torch.randn(*shape) * 2 + 1)
                copy_weights(tm, gm)
                tm.eval()
                gm.eval()
                x = (rs.randint(0, 6, size=(4, 3)).astype(np.int64) if shape == 'int64'
                     else rs.randn(*shape).astype(np.float32))
                if key == 'lp_pools':   # x^p of a negative x is NaN for p = 3 in both
                    x = np.abs(x)
                path = os.path.join(d, key + '.onnx')
                gnn.onnx.export(gm, gnn.tensor(x), path)
                model = onnx.load(path)
                onnx.checker.check_model(model, full_check=True)
                expected = tm(torch.from_numpy(x)).detach().numpy()
                if HAVE_ORT:
                    got = run_ort(path, {model.graph.input[0].name: x})[model.graph.output[0].name]
                    self.assertEqual(got.shape, expected.shape)
                    self.assertTrue(np.allclose(got, expected, rtol=1e-5, atol=1e-6), abs(got - expected).max())
                back = gnn.onnx.import_model(path)(gnn.tensor(x)).numpy()
                self.assertTrue(np.allclose(back, expected, rtol=1e-5, atol=1e-6), abs(back - expected).max())
                import io
                buf = io.BytesIO()
                try:
                    torch.onnx.export(tm, torch.from_numpy(x), buf, opset_version=17)
                except Exception:   # torch 1.13 writes no form (channel_shuffle, padding='same' in 3-d)
                    continue
                if key in ('local_response_norms', 'embedding_bags'):
                    continue   # torch writes an If over the input's rank, a Loop over the bags: subgraphs are refused
                torch_written += 1
                back = gnn.onnx.import_model(buf.getvalue())(gnn.tensor(x)).numpy()
                self.assertTrue(np.allclose(back, expected, rtol=1e-5, atol=1e-6), abs(back - expected).max())
        self.assertGreaterEqual(torch_written, 5)

    def test_refusals(self):
        d = tempfile.mkdtemp()
        self.addCleanup(lambda: subprocess.run(['rm', '-rf', d]))
        for m, shape, message in [
                (gnn.nn.AdaptiveMaxPool2d(4), (1, 2, 6, 6), 'to a size that does not divide the input'),
                (gnn.nn.AdaptiveMaxPool2d(3, return_indices=True), (1, 2, 6, 6), 'with return_indices'),
                (gnn.nn.InstanceNorm1d(2), (2, 5), 'InstanceNorm1d of a 2-d input'),
                (gnn.nn.EmbeddingBag(6, 3, padding_idx=0), 'int64', 'EmbeddingBag with padding_idx')]:
            with self.subTest(message=message):
                x = gnn.tensor([[1, 2]], dtype=gnn.int64) if shape == 'int64' else gnn.randn(*shape)
                with self.assertRaises(GLib.GError) as cm:
                    gnn.onnx.export(m, x, os.path.join(d, 'm.onnx'))
                self.assertIn(message, cm.exception.message)


class TestTransformerImport(unittest.TestCase):
    """torch 1.13's export of nn.TransformerEncoder (MatMul, Softmax, LayerNormalization and
    the shape arithmetic of the heads: Shape, Gather with a negative index, integer Div, Slice)
    read into gnn gives torch's outputs"""

    def test_encoder(self):
        torch.manual_seed(4)
        for kw in ({}, {'batch_first': True, 'norm_first': True, 'activation': 'gelu'}):
            for opset in (14, 17):
                with self.subTest(options=kw, opset=opset):
                    layer = torch.nn.TransformerEncoderLayer(8, 2, dim_feedforward=16, dropout=0.0, **kw)
                    tm = torch.nn.TransformerEncoder(layer, 2, enable_nested_tensor=False).eval()
                    x = torch.randn(5, 3, 8)
                    buf = torch_bytes(tm, x, opset_version=opset)
                    ops = {n.op_type for n in onnx.load_from_string(buf).graph.node}
                    self.assertIn('Slice', ops)
                    gm = gnn.onnx.import_model(buf)
                    expected = tm(x).detach().numpy()
                    found = gm(gnn.tensor(x.numpy())).numpy()
                    self.assertEqual(found.shape, expected.shape)
                    self.assertTrue(close(found, expected), abs(found - expected).max())

    def test_encoder_with_masks(self):
        # torch 1.13's opset-17 export of a TransformerEncoder given a float src mask and a bool
        # key padding mask as graph inputs (it writes them with Cast, Equal, Where, Expand,
        # ConstantOfShape besides the attention's MatMul and Softmax) reads into gnn
        class Encoder(torch.nn.Module):
            def __init__(self, **kw):
                super().__init__()
                layer = torch.nn.TransformerEncoderLayer(8, 2, dim_feedforward=16, dropout=0.0, **kw)
                self.enc = torch.nn.TransformerEncoder(layer, 2, enable_nested_tensor=False)

            def forward(self, x, mask, pad):
                return self.enc(x, mask=mask, src_key_padding_mask=pad)
        torch.manual_seed(4)
        for kw in ({}, {'batch_first': True, 'norm_first': True, 'activation': 'gelu'}):
            with self.subTest(options=kw):
                tm = Encoder(**kw).eval()
                length, batch = (3, 5) if kw else (5, 3)
                x = torch.randn(5, 3, 8)
                mask = torch.nn.Transformer.generate_square_subsequent_mask(length)
                pad = torch.zeros(batch, length, dtype=torch.bool)
                pad[0, -1] = True
                import io
                buf = io.BytesIO()
                torch.onnx.export(tm, (x, mask, pad), buf, opset_version=17)
                self.assertIn('Where', {n.op_type for n in onnx.load_from_string(buf.getvalue()).graph.node})
                expected = tm(x, mask, pad).detach().numpy()
                found = gnn.onnx.import_model(buf.getvalue())(gnn.tensor(x.numpy()), gnn.tensor(mask.numpy()),
                                                              gnn.tensor(pad.numpy())).numpy()
                self.assertTrue(close(found, expected), abs(found - expected).max())

    def test_integer_div_and_slice(self):
        from gi.overrides._gnn import onnx as o   # the operators' functions
        a = gnn.tensor([26, -7], dtype=gnn.int64)
        self.assertEqual(o.onnx_Div(a, gnn.tensor([3], dtype=gnn.int64)).tolist(), [8, -2])
        x = gnn.arange(10.0).reshape(2, 5)
        self.assertEqual(o.onnx_Slice(x, [1], [2 ** 63 - 1], [1], [2]).tolist(), [[1.0, 3.0], [6.0, 8.0]])
        self.assertEqual(o.onnx_Slice(x, [-3], [-1], [-1]).tolist(), [[2.0, 3.0], [7.0, 8.0]])
        self.assertEqual(o.onnx_Gather(gnn.tensor([4, 5, 6], dtype=gnn.int64),
                                       gnn.tensor([-1], dtype=gnn.int64)).tolist(), [6])
        y = np.arange(6.0, dtype=np.float32).reshape(1, 2, 3)
        for mode, np_mode in (('constant', 'constant'), ('reflect', 'reflect'), ('edge', 'edge')):
            got = o.onnx_Pad(gnn.tensor(y), [0, 0, 1, 0, 1, 2], mode=mode).numpy()
            self.assertTrue(np.array_equal(got, np.pad(y, [(0, 0), (0, 1), (1, 2)], np_mode)), mode)


DOC = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'doc', 'onnx.md')
OPS_DEF = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'gnn', 'backend',
                       'gnn-backend-ops.def')


def doc_table(heading):
    """the rows of the table under the '### heading' of doc/onnx.md, first cell -> second"""
    rows, inside = {}, False
    with open(DOC) as f:
        for line in f:
            if line.startswith('#'):
                inside = line.strip() == '### ' + heading
                continue
            if inside and line.startswith('|') and not line.startswith('|-'):
                cells = [c.strip() for c in line.strip().strip('|').split('|')]
                if cells[0] not in ('layer', 'op'):
                    rows[cells[0]] = cells[1]
    return rows


def layer_types():
    """every non-abstract GnnModule subclass of the typelib, by its Python name"""
    import gi
    gi.require_version('GIRepository', '2.0')
    from gi.repository import GIRepository
    repo = GIRepository.Repository.get_default()
    names = set()
    for i in range(repo.get_n_infos('Gnn')):
        info = repo.get_info('Gnn', i)
        if info.get_type() != GIRepository.InfoType.OBJECT:
            continue
        gtype = GIRepository.registered_type_info_get_g_type(info)
        if (gtype.is_a(Gnn.Module.__gtype__) and gtype != Gnn.Module.__gtype__
                and not GIRepository.object_info_get_abstract(info)):
            names.add(info.get_name())
    return names


# a default construction and an input shape for each layer the doc gives a form
LAYER_CASES = {
    'Linear': (lambda nn: nn.Linear(4, 3), (2, 4)),
    'Conv2d': (lambda nn: nn.Conv2d(2, 3, 3), (1, 2, 6, 6)),
    'MaxPool2d': (lambda nn: nn.MaxPool2d(2), (1, 2, 6, 6)),
    'AvgPool2d': (lambda nn: nn.AvgPool2d(2), (1, 2, 6, 6)),
    'AdaptiveAvgPool2d': (lambda nn: nn.AdaptiveAvgPool2d(3), (1, 2, 6, 6)),
    'BatchNorm1d': (lambda nn: nn.BatchNorm1d(3), (2, 3)),
    'BatchNorm2d': (lambda nn: nn.BatchNorm2d(2), (1, 2, 4, 4)),
    'Dropout': (lambda nn: nn.Dropout(), (2, 4)),
    'Dropout1d': (lambda nn: nn.Dropout1d(), (2, 3, 4)),
    'Dropout2d': (lambda nn: nn.Dropout2d(), (1, 2, 4, 4)),
    'Identity': (lambda nn: nn.Identity(), (2, 4)),
    'ELU': (lambda nn: nn.ELU(), (2, 4)),
    'LeakyReLU': (lambda nn: nn.LeakyReLU(), (2, 4)),
    'ReLU': (lambda nn: nn.ReLU(), (2, 4)),
    'Sigmoid': (lambda nn: nn.Sigmoid(), (2, 4)),
    'Tanh': (lambda nn: nn.Tanh(), (2, 4)),
    'Softsign': (lambda nn: nn.Softsign(), (2, 4)),
    'Softmax': (lambda nn: nn.Softmax(1), (2, 4)),
    'LogSoftmax': (lambda nn: nn.LogSoftmax(1), (2, 4)),
    'Flatten': (lambda nn: nn.Flatten(), (2, 3, 4)),
    'Sequential': (lambda nn: nn.Sequential(nn.Linear(4, 3)), (2, 4)),
    'Conv1d': (lambda nn: nn.Conv1d(2, 3, 3), (1, 2, 6)),
    'ConvTranspose1d': (lambda nn: nn.ConvTranspose1d(2, 3, 3), (1, 2, 6)),
    'ConvTranspose2d': (lambda nn: nn.ConvTranspose2d(2, 3, 3), (1, 2, 5, 5)),
    'LayerNorm': (lambda nn: nn.LayerNorm(4), (2, 4)),
    'Embedding': (lambda nn: nn.Embedding(6, 3), 'int64'),
    'SiLU': (lambda nn: nn.SiLU(), (2, 4)),
    'GELU': (lambda nn: nn.GELU(), (2, 4)),
    'Hardtanh': (lambda nn: nn.Hardtanh(), (2, 4)),
    'ReLU6': (lambda nn: nn.ReLU6(), (2, 4)),
    'Hardsigmoid': (lambda nn: nn.Hardsigmoid(), (2, 4)),
    'Hardswish': (lambda nn: nn.Hardswish(), (2, 4)),
    # a tuple-giving layer is exported inside a module that picks its tensors
    'SELU': (lambda nn: nn.SELU(), (2, 4)),
    'ConstantPad1d': (lambda nn: nn.ConstantPad1d(2, 1.0), (1, 2, 4)),
    'ConstantPad2d': (lambda nn: nn.ConstantPad2d(2, 1.0), (1, 2, 4, 4)),
    'ConstantPad3d': (lambda nn: nn.ConstantPad3d(1, 1.0), (1, 2, 3, 3, 3)),
    'ZeroPad2d': (lambda nn: nn.ZeroPad2d(2), (1, 2, 4, 4)),
    'ReflectionPad1d': (lambda nn: nn.ReflectionPad1d(2), (1, 2, 4)),
    'ReflectionPad2d': (lambda nn: nn.ReflectionPad2d(2), (1, 2, 4, 4)),
    'ReflectionPad3d': (lambda nn: nn.ReflectionPad3d(1), (1, 2, 3, 3, 3)),
    'ReplicationPad1d': (lambda nn: nn.ReplicationPad1d(2), (1, 2, 4)),
    'ReplicationPad2d': (lambda nn: nn.ReplicationPad2d(2), (1, 2, 4, 4)),
    'ReplicationPad3d': (lambda nn: nn.ReplicationPad3d(1), (1, 2, 3, 3, 3)),
    'MaxPool1d': (lambda nn: nn.MaxPool1d(2), (1, 2, 6)),
    'AvgPool1d': (lambda nn: nn.AvgPool1d(2), (1, 2, 6)),
    'AdaptiveAvgPool1d': (lambda nn: nn.AdaptiveAvgPool1d(3), (1, 2, 6)),
    'Unflatten': (lambda nn: nn.Unflatten(1, (2, 2)), (3, 4)),
    'RReLU': (lambda nn: nn.RReLU(), (2, 4)),
    'CELU': (lambda nn: nn.CELU(), (2, 4)),
    'Softplus': (lambda nn: nn.Softplus(), (2, 4)),
    'Hardshrink': (lambda nn: nn.Hardshrink(), (2, 4)),
    'Softshrink': (lambda nn: nn.Softshrink(), (2, 4)),
    'Softmax2d': (lambda nn: nn.Softmax2d(), (1, 2, 3, 3)),
    'Softmin': (lambda nn: nn.Softmin(1), (2, 4)),
    'LogSigmoid': (lambda nn: nn.LogSigmoid(), (2, 4)),
    'Tanhshrink': (lambda nn: nn.Tanhshrink(), (2, 4)),
    'PReLU': (lambda nn: nn.PReLU(), (2, 4)),
    'LSTM': (lambda nn: recurrent_model(gnn, 'LSTM'), (5, 2, 3)),
    'GRU': (lambda nn: recurrent_model(gnn, 'GRU'), (5, 2, 3)),
    'RNN': (lambda nn: recurrent_model(gnn, 'RNN'), (5, 2, 3)),
    'GroupNorm': (lambda nn: nn.GroupNorm(2, 4), (2, 4, 3)),
    'Mish': (lambda nn: nn.Mish(), (2, 4)),
    'GLU': (lambda nn: nn.GLU(), (2, 4)),
    'Threshold': (lambda nn: nn.Threshold(0.5, -2.0), (2, 4)),
    'RNNCell': (lambda nn: nn.RNNCell(4, 3), (2, 4)),
    'GRUCell': (lambda nn: nn.GRUCell(4, 3), (2, 4)),
    'LSTMCell': (lambda nn: nn.LSTMCell(4, 3), (2, 4)),
    'Bilinear': (lambda nn: paired(nn.Bilinear(4, 4, 3)), (2, 4)),
    'CosineSimilarity': (lambda nn: paired(nn.CosineSimilarity()), (2, 4)),
    'PairwiseDistance': (lambda nn: paired(nn.PairwiseDistance()), (2, 4)),
    'MultiheadAttention': (lambda nn: attention_model(gnn, 'self'), (4, 2, 8)),
    'TransformerEncoderLayer': (lambda nn: nn.TransformerEncoderLayer(8, 2, dim_feedforward=16), (4, 2, 8)),
    'TransformerEncoder': (lambda nn: nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, dim_feedforward=16), 2),
                           (4, 2, 8)),
    'TransformerDecoderLayer': (lambda nn: decoder_model(gnn, 'layer'), (4, 2, 8)),
    'TransformerDecoder': (lambda nn: decoder_model(gnn, 'stack'), (4, 2, 8)),
    'Transformer': (lambda nn: decoder_model(gnn, 'transformer'), (4, 2, 8)),
    'Conv3d': (lambda nn: nn.Conv3d(2, 3, 2), (1, 2, 3, 4, 3)),
    'ConvTranspose3d': (lambda nn: nn.ConvTranspose3d(2, 3, 2), (1, 2, 3, 3, 3)),
    'MaxPool3d': (lambda nn: nn.MaxPool3d(2), (1, 2, 4, 4, 4)),
    'AvgPool3d': (lambda nn: nn.AvgPool3d(2), (1, 2, 4, 4, 4)),
    'BatchNorm3d': (lambda nn: nn.BatchNorm3d(2), (1, 2, 3, 3, 3)),
    'AdaptiveAvgPool3d': (lambda nn: nn.AdaptiveAvgPool3d(2), (1, 2, 4, 4, 4)),
    'AdaptiveMaxPool1d': (lambda nn: nn.AdaptiveMaxPool1d(3), (1, 2, 6)),
    'AdaptiveMaxPool2d': (lambda nn: nn.AdaptiveMaxPool2d(3), (1, 2, 6, 6)),
    'AdaptiveMaxPool3d': (lambda nn: nn.AdaptiveMaxPool3d(1), (1, 2, 4, 4, 4)),
    'Dropout3d': (lambda nn: nn.Dropout3d(), (1, 2, 3, 3, 3)),
    'AlphaDropout': (lambda nn: nn.AlphaDropout(), (2, 4)),
    'FeatureAlphaDropout': (lambda nn: nn.FeatureAlphaDropout(), (1, 2, 3, 3)),
    'InstanceNorm1d': (lambda nn: nn.InstanceNorm1d(2), (2, 2, 5)),
    'InstanceNorm2d': (lambda nn: nn.InstanceNorm2d(2), (2, 2, 3, 3)),
    'InstanceNorm3d': (lambda nn: nn.InstanceNorm3d(2), (2, 2, 3, 3, 3)),
    'PixelShuffle': (lambda nn: nn.PixelShuffle(2), (1, 8, 2, 3)),
    'PixelUnshuffle': (lambda nn: nn.PixelUnshuffle(2), (1, 2, 4, 6)),
    'ChannelShuffle': (lambda nn: nn.ChannelShuffle(2), (1, 4, 2, 3)),
    'LPPool1d': (lambda nn: nn.LPPool1d(2, 2), (1, 2, 6)),
    'LPPool2d': (lambda nn: nn.LPPool2d(2, 2), (1, 2, 4, 4)),
    'LocalResponseNorm': (lambda nn: nn.LocalResponseNorm(2), (1, 4, 3, 3)),
    'Unfold': (lambda nn: nn.Unfold(2), (1, 2, 4, 4)),
    'Fold': (lambda nn: nn.Fold(4, 2), (1, 8, 9)),
    'EmbeddingBag': (lambda nn: nn.EmbeddingBag(6, 3), 'int64'),
    'Upsample': (lambda nn: nn.Upsample(scale_factor=2), (1, 2, 3, 3)),
    'UpsamplingNearest2d': (lambda nn: nn.UpsamplingNearest2d(scale_factor=2), (1, 2, 3, 3)),
    'UpsamplingBilinear2d': (lambda nn: nn.UpsamplingBilinear2d(scale_factor=2), (1, 2, 3, 3)),
}


def attention_model(lib, mode, **kw):
    """a module calling MultiheadAttention (8 features, 2 heads) as @mode says"""
    class Attention(lib.nn.Module):
        def __init__(self):
            super().__init__()
            self.attn = lib.nn.MultiheadAttention(8, 2, **kw)

    class Self(Attention):
        def forward(self, x):
            if mode == 'no-weights':
                return self.attn(x, x, x, need_weights=False)[0]
            r = self.attn(x, x, x)
            return r[0], r[1]

    class Masked(Attention):
        def forward(self, x, mask):
            r = self.attn(x, x, x, attn_mask=mask)
            return r[0], r[1]

    class Three(Attention):
        def forward(self, x, y, z):
            if mode == 'cross':
                r = self.attn(x, y, z, average_attn_weights=False)
            else:
                r = self.attn(x, x, x, z, attn_mask=y)     # key_padding_mask is the 4th
            return r[0], r[1]
    return {'cross': Three, 'masks': Three, 'mask-3d': Masked}.get(mode, Self)()


def encoder_model(lib, layers=2, final_norm=True, masks=False, **kw):
    """torch's TransformerEncoder of @layers layers (d_model 8, 2 heads, dropout 0), called
    with a float mask and key padding mask with @masks"""
    nn = lib.nn
    if kw.get('activation') == 'relu-module':    # an activation given as a module
        kw['activation'] = nn.ReLU()
    layer = nn.TransformerEncoderLayer(8, 2, dim_feedforward=16, dropout=0.0, **kw)
    extra = {'enable_nested_tensor': False} if lib is torch else {}
    encoder = nn.TransformerEncoder(layer, layers, norm=nn.LayerNorm(8) if final_norm else None, **extra)
    if not masks:
        return encoder

    class Masked(nn.Module):
        def __init__(self):
            super().__init__()
            self.encoder = encoder

        def forward(self, x, mask, kpm):
            return self.encoder(x, mask=mask, src_key_padding_mask=kpm)
    return Masked()


def decoder_model(lib, kind, masks=False, memory=False, **kw):
    """a module calling a TransformerDecoderLayer, a TransformerDecoder (2 layers, final norm) or
    a Transformer (1 encoder and 2 decoder layers) of d_model 8, 2 heads, dropout 0, on x as the
    target and a memory (or source) input (@memory; x * 2 without); with @masks, a target mask
    and a memory key padding mask as inputs too"""
    nn = lib.nn

    class Decoder(nn.Module):
        def __init__(self):
            super().__init__()
            if kind == 'transformer':
                self.m = nn.Transformer(8, 2, 1, 2, 16, 0.0, **kw)
            else:
                layer = nn.TransformerDecoderLayer(8, 2, dim_feedforward=16, dropout=0.0, **kw)
                self.m = layer if kind == 'layer' else nn.TransformerDecoder(layer, 2, norm=nn.LayerNorm(8))

        def forward(self, x, memory, mask, kpm):
            if kind == 'transformer':
                return self.m(memory, x, tgt_mask=mask, memory_key_padding_mask=kpm)
            return self.m(x, memory, tgt_mask=mask, memory_key_padding_mask=kpm)

    class Memory(Decoder):
        def forward(self, x, memory):
            return self.m(memory, x) if kind == 'transformer' else self.m(x, memory)

    class Plain(Decoder):
        def forward(self, x):
            return self.m(x * 2.0, x) if kind == 'transformer' else self.m(x, x * 2.0)
    return Decoder() if masks else Memory() if memory else Plain()


class TestAttentionExport(unittest.TestCase):
    """MultiheadAttention and the Transformer encoder built in gnn, written as torch 1.13's
    MatMul/Softmax/LayerNormalization composition, run in ONNX Runtime to torch's outputs with
    the same weights, and read back by gnn's importer to the same numbers"""

    def check(self, tm, gm, inputs, names=None, torch_inputs=None, **kw):
        copy_weights(tm, gm)
        tm.eval()
        d = tempfile.mkdtemp()
        self.addCleanup(lambda: subprocess.run(['rm', '-rf', d]))
        path = os.path.join(d, 'model.onnx')
        gnn.onnx.export(gm, tuple(gnn.tensor(x) for x in inputs), path, input_names=names, **kw)
        model = onnx.load(path)
        onnx.checker.check_model(model, full_check=True)
        inits = {i.name for i in model.graph.initializer}
        self.assertLessEqual(set(tm.state_dict()), inits)   # under torch's state-dict keys
        # with grad enabled, as torch 1.13's fast path (inference without grad) refuses float
        # key padding masks
        expected = tm(*[torch.from_numpy(x) for x in torch_inputs or inputs])
        expected = [e.detach().numpy() for e in (expected if isinstance(expected, tuple) else (expected,))]
        gm.eval()
        found = gm(*[gnn.tensor(x) for x in inputs])
        found = [f.numpy() for f in (found if isinstance(found, tuple) else (found,))]
        back = gnn.onnx.import_model(path)(*[gnn.tensor(x) for x in inputs])
        back = [b.numpy() for b in (back if isinstance(back, tuple) else (back,))]
        outs = run_ort(path, {i.name: x for i, x in zip(model.graph.input, inputs)}) if HAVE_ORT else None
        for k, (f, b, e) in enumerate(zip(found, back, expected)):
            self.assertEqual(f.shape, e.shape)
            self.assertTrue(np.allclose(f, e, rtol=1e-5, atol=1e-6), abs(f - e).max())
            self.assertTrue(np.allclose(b, e, rtol=1e-5, atol=1e-6), abs(b - e).max())
            if outs is not None:
                got = outs[model.graph.output[k].name]
                self.assertEqual(got.shape, e.shape)
                self.assertTrue(np.allclose(got, e, rtol=1e-5, atol=1e-6), abs(got - e).max())
                self.assertTrue(np.allclose(got, f, rtol=1e-5, atol=1e-6), abs(got - f).max())
        return path, model

    def test_encoder(self):
        """the issue's Transformer encoder: 2 layers, d_model 8, 2 heads, dropout 0"""
        rs = np.random.RandomState(8)
        for kw in ({}, {'batch_first': True, 'norm_first': True, 'activation': 'gelu'},
                   {'norm_first': True, 'final_norm': False}, {'activation': 'gelu', 'final_norm': False},
                   {'activation': 'relu-module'}):
            with self.subTest(options=kw):
                torch.manual_seed(9)
                x = rs.randn(5, 3, 8).astype(np.float32)
                path, model = self.check(encoder_model(torch, **kw), encoder_model(gnn, **kw), [x])
                ops = {n.op_type for n in model.graph.node}
                self.assertLessEqual({'MatMul', 'Softmax', 'LayerNormalization', 'Div'}, ops)
                self.assertIn('Erf' if kw.get('activation') == 'gelu' else 'Relu', ops)
                self.assertEqual(sum(n.op_type == 'Softmax' for n in model.graph.node), 2)
                # per layer one packed in-projection (torch's form), scores, values, out_proj,
                # linear1, linear2
                self.assertEqual(sum(n.op_type == 'MatMul' for n in model.graph.node), 12)
                self.assertEqual(sum(n.op_type == 'LayerNormalization' for n in model.graph.node),
                                 4 + (0 if kw.get('final_norm') is False else 1))

    def test_encoder_masks_and_dynamic_axes(self):
        torch.manual_seed(10)
        rs = np.random.RandomState(11)
        x = rs.randn(5, 3, 8).astype(np.float32)
        mask, padded = rs.randn(5, 5).astype(np.float32), rs.rand(3, 5) < 0.3
        padded[:, 0] = False
        # torch 1.13 takes a bool key padding mask only; gnn, as PyTorch 2, a float one too,
        # added to the scores: -1e9 where torch's is True (exp of it is 0 in float32, as of -inf)
        kpm = np.where(padded, -1e9, 0.0).astype(np.float32)
        self.check(encoder_model(torch, masks=True), encoder_model(gnn, masks=True), [x, mask, kpm],
                   torch_inputs=[x, mask, padded])
        # a layer alone, batch first, its sequence and batch dynamic
        tm = torch.nn.TransformerEncoderLayer(8, 2, dim_feedforward=16, dropout=0.0, batch_first=True)
        gm = gnn.nn.TransformerEncoderLayer(8, 2, dim_feedforward=16, dropout=0.0, batch_first=True)
        path, model = self.check(tm, gm, [x], names=['src'], output_names=['out'],
                                 dynamic_axes={'src': {0: 'batch', 1: 'seq'}, 'out': {0: 'batch', 1: 'seq'}})
        self.assertIn('self_attn.in_proj_weight', {i.name for i in model.graph.initializer})
        if HAVE_ORT:
            x2 = rs.randn(2, 7, 8).astype(np.float32)
            got = run_ort(path, {'src': x2})['out']
            e = tm(torch.from_numpy(x2)).detach().numpy()
            self.assertTrue(np.allclose(got, e, rtol=1e-5, atol=1e-6), abs(got - e).max())

    def test_decoder_and_transformer(self):
        rs = np.random.RandomState(20)
        for kind in ('layer', 'stack', 'transformer'):
            for kw in ({}, {'batch_first': True, 'norm_first': True, 'activation': 'gelu'}):
                with self.subTest(kind=kind, options=kw):
                    torch.manual_seed(21)
                    x = rs.randn(5, 3, 8).astype(np.float32)
                    memory = rs.randn(*((5, 2, 8) if kw else (4, 3, 8))).astype(np.float32)
                    self.check(decoder_model(torch, kind, memory=True, **kw),
                               decoder_model(gnn, kind, memory=True, **kw), [x, memory])
            with self.subTest(kind=kind, masks=True):
                torch.manual_seed(22)
                x, memory = rs.randn(5, 3, 8).astype(np.float32), rs.randn(4, 3, 8).astype(np.float32)
                causal = np.triu(np.full((5, 5), -1e9, np.float32), 1)
                padded = rs.rand(3, 4) < 0.3
                padded[:, 0] = False
                kpm = np.where(padded, -1e9, 0.0).astype(np.float32)
                self.check(decoder_model(torch, kind, masks=True), decoder_model(gnn, kind, masks=True),
                           [x, memory, causal, kpm], torch_inputs=[x, memory, causal, padded])

    def test_module_called_twice(self):
        """a layer called twice writes its form twice, the nodes of the second named apart
        (ONNX Runtime refuses a model whose node names repeat)"""
        def twice(lib):
            class Twice(lib.nn.Module):
                def __init__(self):
                    super().__init__()
                    self.enc = lib.nn.TransformerEncoderLayer(8, 2, dim_feedforward=16, dropout=0.0)
                    self.fc = lib.nn.Linear(8, 8)

                def forward(self, x):
                    return self.fc(self.enc(self.fc(self.enc(x))))
            return Twice()
        torch.manual_seed(23)
        x = np.random.RandomState(24).randn(5, 3, 8).astype(np.float32)
        path, model = self.check(twice(torch), twice(gnn), [x])
        names = [n.name for n in model.graph.node]
        self.assertEqual(len(names), len(set(names)))
        self.assertIn('/enc.norm1/LayerNormalization_1', names)   # torch's names: _1 for the second call

    def test_layers_alone(self):
        """MultiheadAttention and TransformerDecoderLayer exported alone (torch.onnx.export of
        the layer): an input per example input, the tuple's tensors as outputs"""
        rs = np.random.RandomState(27)
        x, memory = rs.randn(4, 3, 8).astype(np.float32), rs.randn(2, 3, 8).astype(np.float32)
        torch.manual_seed(28)
        path, model = self.check(torch.nn.MultiheadAttention(8, 2), gnn.nn.MultiheadAttention(8, 2), [x, memory, memory])
        self.assertEqual((len(model.graph.input), len(model.graph.output)), (3, 2))
        tm = torch.nn.TransformerDecoderLayer(8, 2, 16, 0.0)
        path, model = self.check(tm, gnn.nn.TransformerDecoderLayer(8, 2, 16, 0.0), [x, memory])
        self.assertEqual((len(model.graph.input), len(model.graph.output)), (2, 1))

    def test_multihead_attention(self):
        rs = np.random.RandomState(12)
        x, y, z = rs.randn(4, 3, 8), rs.randn(6, 3, 5), rs.randn(6, 3, 7)
        padded = rs.rand(3, 4) < 0.3
        padded[:, 0] = False
        cases = {
            'self-weights': ({}, [x]),
            'no-weights': ({'batch_first': True, 'bias': False}, [x]),
            'cross': ({'kdim': 5, 'vdim': 7}, [x, y, z]),
            'masks': ({}, [x, rs.randn(4, 4), padded]),
            'mask-3d': ({'batch_first': True}, [x, rs.randn(8, 3, 3)]),
            'unbatched': ({}, [x[:, 0]]),
        }
        for mode, (kw, inputs) in cases.items():
            with self.subTest(mode=mode):
                torch.manual_seed(13)
                # a float key padding mask for gnn and ONNX Runtime, bool for torch 1.13 (see above)
                feeds = [np.where(a, -1e9, 0.0).astype(np.float32) if a.dtype == bool else a.astype(np.float32)
                         for a in inputs]
                self.check(attention_model(torch, mode, **kw), attention_model(gnn, mode, **kw), feeds,
                           torch_inputs=[a if a.dtype == bool else a.astype(np.float32) for a in inputs])

    def test_bool_masks(self):
        """bool masks (True: not attended) are -inf and 0 (Where); ONNX Runtime is fed floats
        and int64 only here, so the file is checked by gnn's importer"""
        torch.manual_seed(14)
        rs = np.random.RandomState(15)
        x = rs.randn(4, 3, 8).astype(np.float32)
        mask, kpm = rs.rand(4, 4) < 0.3, rs.rand(3, 4) < 0.3
        mask[:, 0] = kpm[:, 0] = False        # no row masked whole (torch gives NaN there)
        tm, gm = attention_model(torch, 'masks'), attention_model(gnn, 'masks')
        copy_weights(tm, gm)
        d = tempfile.mkdtemp()
        self.addCleanup(lambda: subprocess.run(['rm', '-rf', d]))
        path = os.path.join(d, 'model.onnx')
        gnn.onnx.export(gm, (gnn.tensor(x), gnn.tensor(mask), gnn.tensor(kpm)), path)
        model = onnx.load(path)
        onnx.checker.check_model(model, full_check=True)
        self.assertIn('Where', {n.op_type for n in model.graph.node})
        expected = tm.eval()(*[torch.from_numpy(a) for a in (x, mask, kpm)])
        back = gnn.onnx.import_model(path)(gnn.tensor(x), gnn.tensor(mask), gnn.tensor(kpm))
        for b, e in zip(back, expected):
            self.assertTrue(np.allclose(b.numpy(), e.detach().numpy(), rtol=1e-5, atol=1e-6))

    def test_refusals(self):
        d = tempfile.mkdtemp()
        self.addCleanup(lambda: subprocess.run(['rm', '-rf', d]))
        with self.assertRaises(GLib.GError) as cm:
            gnn.onnx.export(attention_model(gnn, 'self', add_bias_kv=True), gnn.randn(4, 3, 8),
                            os.path.join(d, 'm.onnx'))
        self.assertIn('MultiheadAttention with add_bias_kv has no ONNX form', cm.exception.message)

        class Whole(gnn.nn.Module):
            def __init__(self):
                super().__init__()
                self.attn = gnn.nn.MultiheadAttention(8, 2)

            def forward(self, x):
                return self.attn(x, x, x)
        with self.assertRaises(GLib.GError) as cm:
            gnn.onnx.export(Whole(), gnn.randn(4, 3, 8), os.path.join(d, 'm.onnx'))
        self.assertIn('returns the tuple attn gives', cm.exception.message)
        layer = gnn.nn.TransformerEncoderLayer(8, 2, dim_feedforward=16, activation=gnn.nn.Tanh())
        with self.assertRaises(GLib.GError) as cm:
            gnn.onnx.export(layer, gnn.randn(4, 3, 8), os.path.join(d, 'm.onnx'))
        self.assertIn('a Transformer layer whose activation is a Tanh has no ONNX form', cm.exception.message)


def norm_activation_cases(lib):
    nn = lib.nn
    return {
        'groupnorm-2d': (nn.GroupNorm(2, 6), (2, 6, 4, 4)),
        'groupnorm-1d-plain': (nn.GroupNorm(3, 6, affine=False, eps=1e-3), (2, 6, 5)),
        'groupnorm-one-group-2-dims': (nn.GroupNorm(1, 4), (3, 4)),
        'mish': (nn.Mish(), (3, 5)),
        'conv-groupnorm-mish': (nn.Sequential(nn.Conv2d(2, 4, 3, padding=1), nn.GroupNorm(2, 4), nn.Mish()),
                                (2, 2, 5, 5)),
        'glu-threshold': (nn.Sequential(nn.GLU(1), nn.Threshold(0.1, 20.0), nn.GLU()), (2, 6, 4)),
        'glu-threshold-0': (nn.Sequential(nn.GLU(), nn.Threshold(0.0, 0.0)), (3, 4)),
    }


class TestNormActivationExport(unittest.TestCase):
    """GroupNorm (torch's Reshape, InstanceNormalization, Reshape, Mul, Add), Mish (Softplus,
    Tanh, Mul), GLU (Slice, Sigmoid, Mul) and Threshold (Greater, Where), which opset 17 lacks,
    both ways: gnn -> ONNX -> ONNX Runtime and
    back into gnn, and torch.onnx.export -> gnn's importer, against torch"""

    def test_export(self):
        torch.manual_seed(16)
        tms, gms = norm_activation_cases(torch), norm_activation_cases(gnn)
        d = tempfile.mkdtemp()
        self.addCleanup(lambda: subprocess.run(['rm', '-rf', d]))
        for name, (tm, shape) in tms.items():
            with self.subTest(case=name):
                gm = gms[name][0]
                for k, v in tm.state_dict().items():     # weights other than ones and zeros
                    if k.endswith(('weight', 'bias')) and 'conv' not in name:
                        v.copy_(torch.randn_like(v))
                copy_weights(tm, gm)
                tm.eval()
                # values beyond 20, where torch's softplus turns linear
                x = (np.random.RandomState(17).randn(*shape) * 8).astype(np.float32)
                path = os.path.join(d, name + '.onnx')
                gnn.onnx.export(gm, gnn.tensor(x), path)
                model = onnx.load(path)
                onnx.checker.check_model(model, full_check=True)
                ops = {n.op_type for n in model.graph.node}
                self.assertIn('InstanceNormalization' if 'groupnorm' in name else 'Where' if 'glu' in name else 'Softplus',
                              ops)
                self.assertLessEqual(set(tm.state_dict()), {i.name for i in model.graph.initializer})
                expected = tm(torch.from_numpy(x)).detach().numpy()
                gm.eval()
                found = gm(gnn.tensor(x)).numpy()
                self.assertTrue(np.allclose(found, expected, rtol=1e-5, atol=1e-6), abs(found - expected).max())
                back = gnn.onnx.import_model(path)(gnn.tensor(x)).numpy()
                self.assertTrue(np.allclose(back, expected, rtol=1e-5, atol=1e-6), abs(back - expected).max())
                if HAVE_ORT:
                    got = run_ort(path, {model.graph.input[0].name: x})[model.graph.output[0].name]
                    self.assertEqual(got.shape, expected.shape)
                    self.assertTrue(np.allclose(got, expected, rtol=1e-5, atol=1e-6), abs(got - expected).max())

    # what torch 1.13's own export cannot write, checked one way only
    TORCH_CANNOT = {'groupnorm-one-group-2-dims': 'torch unsqueezes the weight by no axes (an IndexError) '
                                                  'for a 2-d input',
                    'glu-threshold': 'torch writes Threshold (0, 0) only (a Relu)'}

    def test_import(self):
        torch.manual_seed(18)
        for name, (tm, shape) in norm_activation_cases(torch).items():
            if name in self.TORCH_CANNOT:
                continue
            with self.subTest(case=name):
                x = torch.from_numpy((np.random.RandomState(19).randn(*shape) * 8).astype(np.float32))
                gm = gnn.onnx.import_model(torch_bytes(tm.eval(), x))
                expected = tm(x).detach().numpy()
                found = gm(gnn.tensor(x.numpy())).numpy()
                self.assertEqual(found.shape, expected.shape)
                self.assertTrue(np.allclose(found, expected, rtol=1e-5, atol=1e-6), abs(found - expected).max())


class TestAttentionImport(unittest.TestCase):
    """torch 1.13's own export (opset 17) of nn.MultiheadAttention with masks, of
    nn.TransformerDecoder and of nn.Transformer read into gnn gives torch's outputs"""

    def test_torch_exports(self):
        import io
        torch.manual_seed(25)
        rs = np.random.RandomState(26)
        x, memory = torch.from_numpy(rs.randn(5, 3, 8).astype(np.float32)), torch.from_numpy(rs.randn(4, 3, 8).astype(np.float32))
        mask = torch.from_numpy(rs.randn(5, 5).astype(np.float32))
        padded = torch.from_numpy(rs.rand(3, 5) < 0.3)
        padded[:, 0] = False
        cases = {
            'mha-masks': (attention_model(torch, 'masks'), (x, mask, padded)),
            'mha-cross-per-head': (attention_model(torch, 'cross', kdim=5, vdim=7),
                                   (x, torch.randn(4, 3, 5), torch.randn(4, 3, 7))),
            'decoder': (decoder_model(torch, 'stack', memory=True), (x, memory)),
            'decoder-norm-first-gelu': (decoder_model(torch, 'stack', memory=True, norm_first=True, activation='gelu'),
                                        (x, memory)),
            'transformer': (decoder_model(torch, 'transformer', memory=True), (x, memory)),
        }
        for name, (tm, args) in cases.items():
            with self.subTest(case=name):
                tm.eval()
                buf = io.BytesIO()
                torch.onnx.export(tm, args, buf, opset_version=17)
                gm = gnn.onnx.import_model(buf.getvalue())
                found = gm(*[gnn.tensor(a.numpy()) for a in args])
                expected = tm(*args)
                found = found if isinstance(found, tuple) else (found,)
                expected = expected if isinstance(expected, tuple) else (expected,)
                for f, e in zip(found, expected):
                    e = e.detach().numpy()
                    self.assertEqual(f.numpy().shape, e.shape)
                    self.assertTrue(np.allclose(f.numpy(), e, rtol=1e-5, atol=1e-6), (name, abs(f.numpy() - e).max()))


def cell_model(lib, kind, state, **kw):
    """a module calling RNNCell, GRUCell or LSTMCell (3 inputs, 4 hidden) on x, with a state
    (h, or LSTMCell's (h, c)) as inputs with @state; it returns the new state"""
    class Cell(lib.nn.Module):
        def __init__(self):
            super().__init__()
            self.cell = getattr(lib.nn, kind)(3, 4, **kw)

    class NoState(Cell):
        def forward(self, x):
            r = self.cell(x)
            return (r[0], r[1]) if kind == 'LSTMCell' else r

    class State(Cell):
        def forward(self, x, h, c):
            if kind == 'LSTMCell':
                r = self.cell(x, (h, c))
                return r[0], r[1]
            return self.cell(x, h) + c
    return State() if state else NoState()


class TestCellExport(unittest.TestCase):
    """RNNCell, GRUCell and LSTMCell written as ONNX's RNN, GRU and LSTM over a sequence of
    one, their state as initial_h (initial_c): in ONNX Runtime and read back, torch's new
    state with the same weights"""

    def test_cells(self):
        rs = np.random.RandomState(29)
        d = tempfile.mkdtemp()
        self.addCleanup(lambda: subprocess.run(['rm', '-rf', d]))
        path = os.path.join(d, 'cell.onnx')
        for kind in ('RNNCell', 'GRUCell', 'LSTMCell'):
            for state in (False, True):
                for batched in (True, False):
                    with self.subTest(kind=kind, state=state, batched=batched):
                        torch.manual_seed(30)
                        kw = {'nonlinearity': 'relu'} if kind == 'RNNCell' and state else {}
                        tm, gm = cell_model(torch, kind, state, **kw), cell_model(gnn, kind, state, **kw)
                        copy_weights(tm, gm)
                        tm.eval()
                        n = (2,) if batched else ()
                        ins = [rs.randn(*n, 3).astype(np.float32)]
                        ins += [rs.randn(*n, 4).astype(np.float32), rs.randn(*n, 4).astype(np.float32)] if state else []
                        gnn.onnx.export(gm, tuple(gnn.tensor(a) for a in ins), path)
                        model = onnx.load(path)
                        onnx.checker.check_model(model, full_check=True)
                        self.assertIn(kind[:-4].upper(), {n.op_type for n in model.graph.node})
                        expected = tm(*[torch.from_numpy(a) for a in ins])
                        expected = [e.detach().numpy() for e in (expected if isinstance(expected, tuple) else (expected,))]
                        back = gnn.onnx.import_model(path)(*[gnn.tensor(a) for a in ins])
                        back = back if isinstance(back, tuple) else (back,)
                        outs = run_ort(path, {i.name: a for i, a in zip(model.graph.input, ins)}) if HAVE_ORT else None
                        for k, (b, e) in enumerate(zip(back, expected)):
                            self.assertEqual(b.numpy().shape, e.shape)
                            self.assertTrue(np.allclose(b.numpy(), e, rtol=1e-5, atol=1e-6), abs(b.numpy() - e).max())
                            if outs is not None:
                                got = outs[model.graph.output[k].name]
                                self.assertEqual(got.shape, e.shape)
                                self.assertTrue(np.allclose(got, e, rtol=1e-5, atol=1e-6), abs(got - e).max())


def two_tensor_model(lib, kind, **kw):
    """a module calling CosineSimilarity, PairwiseDistance or Bilinear on its two inputs"""
    class Two(lib.nn.Module):
        def __init__(self):
            super().__init__()
            self.m = {'cosine': lambda: lib.nn.CosineSimilarity(**kw), 'pairwise': lambda: lib.nn.PairwiseDistance(**kw),
                      'bilinear': lambda: lib.nn.Bilinear(4, 3, 5, **kw)}[kind]()

        def forward(self, x1, x2):
            return self.m(x1, x2)
    return Two()


def paired(m):
    """a module calling the two-tensor layer @m on x and tanh (x)"""
    class Paired(gnn.nn.Module):
        def __init__(self):
            super().__init__()
            self.m = m

        def forward(self, x):
            return self.m(x, x.tanh())
    return Paired()


class TestTwoTensorExport(unittest.TestCase):
    """CosineSimilarity, PairwiseDistance and Bilinear, layers of two tensors, in ONNX Runtime
    and read back: torch's outputs with the same weights"""

    def test_layers(self):
        rs = np.random.RandomState(31)
        d = tempfile.mkdtemp()
        self.addCleanup(lambda: subprocess.run(['rm', '-rf', d]))
        path = os.path.join(d, 'two.onnx')
        cases = [('cosine', {}, (3, 4), (3, 4)), ('cosine', {'dim': 0, 'eps': 0.5}, (3, 4), (1, 4)),
                 ('pairwise', {}, (3, 4), (3, 4)), ('pairwise', {'p': 1.0, 'keepdim': True}, (3, 4), (3, 4)),
                 ('pairwise', {'p': 3.0}, (2, 3, 4), (4,)),
                 ('bilinear', {}, (6, 4), (6, 3)), ('bilinear', {'bias': False}, (2, 6, 4), (2, 6, 3))]
        for kind, kw, s1, s2 in cases:
            with self.subTest(kind=kind, options=kw, shapes=(s1, s2)):
                torch.manual_seed(32)
                tm, gm = two_tensor_model(torch, kind, **kw), two_tensor_model(gnn, kind, **kw)
                copy_weights(tm, gm)
                ins = [rs.randn(*s1).astype(np.float32), rs.randn(*s2).astype(np.float32)]
                gnn.onnx.export(gm, tuple(gnn.tensor(a) for a in ins), path)
                model = onnx.load(path)
                onnx.checker.check_model(model, full_check=True)
                expected = tm(*[torch.from_numpy(a) for a in ins]).detach().numpy()
                found = gm(*[gnn.tensor(a) for a in ins]).numpy()
                back = gnn.onnx.import_model(path)(*[gnn.tensor(a) for a in ins]).numpy()
                for got in [found, back] + ([run_ort(path, {i.name: a for i, a in zip(model.graph.input, ins)})
                                             [model.graph.output[0].name]] if HAVE_ORT else []):
                    self.assertEqual(got.shape, expected.shape)
                    self.assertTrue(np.allclose(got, expected, rtol=1e-5, atol=1e-6), abs(got - expected).max())


class TestCoverage(unittest.TestCase):
    def test_every_op_row(self):
        import re
        with open(OPS_DEF) as f:
            ops = re.findall(r'^ *GNN_BACKEND_OP \(([A-Z0-9_]+)', f.read(), re.M)
        self.assertGreater(len(ops), 100)
        rows = doc_table('Ops of the op table')
        self.assertEqual(sorted(set(ops) - set(rows)), [], 'ops of the .def without a row in doc/onnx.md')
        self.assertEqual(sorted(set(rows) - set(ops)), [], 'rows of doc/onnx.md naming no op')
        for op, form in rows.items():
            self.assertTrue(form, op)

    def test_every_layer_row(self):
        types = layer_types()
        self.assertIn('Linear', types)
        self.assertIn('LSTM', types)
        self.assertNotIn('RNNBase', types)       # abstract bases have no row
        rows = doc_table('Layers')
        self.assertEqual(sorted(types - set(rows)), [], 'layer types without a row in doc/onnx.md')
        self.assertEqual(sorted(set(rows) - types), [], 'rows of doc/onnx.md naming no layer type')

    def test_forms_listed_are_written(self):
        rows = doc_table('Layers')
        with_form = sorted(k for k, v in rows.items() if not v.startswith('none'))
        self.assertEqual(sorted(set(with_form) - set(LAYER_CASES)), [],
                         'layers the doc gives a form that no case here exports')
        d = tempfile.mkdtemp()
        self.addCleanup(lambda: subprocess.run(['rm', '-rf', d]))
        for name in with_form:
            make, shape = LAYER_CASES[name]
            with self.subTest(layer=name):
                m = make(gnn.nn)
                m.eval()
                rs = np.random.RandomState(4)
                x = (rs.randint(0, 6, size=(2, 5)).astype(np.int64) if shape == 'int64'
                     else (rs.randn(*shape) * 4).astype(np.float32))
                path = os.path.join(d, name + '.onnx')
                gnn.onnx.export(m, gnn.tensor(x), path)
                model = onnx.load(path)
                onnx.checker.check_model(model, full_check=True)
                if HAVE_ORT:
                    got = run_ort(path, {model.graph.input[0].name: x})[model.graph.output[0].name]
                    want = m(gnn.tensor(x))
                    want = (want[0] if isinstance(want, tuple) else want).numpy()
                    self.assertTrue(np.allclose(got, want, rtol=1e-5, atol=1e-5), (name, abs(got - want).max()))
        # and a layer whose row says none is refused, naming the node and the layer
        for name in ('AveragedModel', 'MSELoss'):
            self.assertTrue(rows[name].startswith('none'))
        with self.assertRaises(GLib.GError) as cm:
            gnn.onnx.export(gnn.optim.swa_utils.AveragedModel(gnn.nn.Linear(4, 4)), gnn.randn(2, 4),
                            os.path.join(d, 'averaged.onnx'))
        self.assertIn('a AveragedModel, which has no ONNX form', cm.exception.message)


class TestVisionExport(unittest.TestCase):
    """gnn -> ONNX -> ONNX Runtime on torchvision's resnet18 and mobilenet_v2, built from gnn's
    layers (vision_models.py) and holding the weights and running statistics of torchvision's
    own random-init models"""

    @staticmethod
    def near(found, expected):
        # rel 1e-5 elementwise, and abs 1e-5 of the largest logit: of the 1000 logits of a
        # random-weight net some lie near zero, and each is the end of long dot products
        # (4608 terms in layer4's convolutions, 1280 in mobilenet_v2's classifier) whose
        # summation order differs between gnn, torch and ONNX Runtime
        scale = float(np.abs(expected).max())
        return np.allclose(found, expected, rtol=1e-5, atol=1e-5 * scale)

    def test_resnet18_and_mobilenet_v2(self):
        import torchvision
        import vision_models
        d = tempfile.mkdtemp()
        self.addCleanup(lambda: subprocess.run(['rm', '-rf', d]))
        torch.manual_seed(0)
        for name in ('resnet18', 'mobilenet_v2'):
            with self.subTest(model=name):
                tm = getattr(torchvision.models, name)(weights=None)
                gm = getattr(vision_models, name)()
                self.assertEqual(list(gm.state_dict()), list(tm.state_dict()))
                tm.train()               # running statistics worth exporting
                with torch.no_grad():
                    tm(torch.randn(2, 3, 64, 64) * 2 + 0.5)
                copy_weights(tm, gm)
                tm.eval()
                gm.eval()
                x = np.random.RandomState(5).randn(1, 3, 64, 64).astype(np.float32)
                with torch.no_grad():
                    expected = tm(torch.from_numpy(x)).numpy()
                found = gm(gnn.tensor(x)).numpy()
                self.assertEqual(found.shape, (1, 1000))
                self.assertTrue(self.near(found, expected), (name, abs(found - expected).max()))

                path = os.path.join(d, name + '.onnx')
                gnn.onnx.export(gm, gnn.tensor(x), path, input_names=['image'], output_names=['logits'])
                model = onnx.load(path)
                onnx.checker.check_model(model, full_check=True)
                # the initializers: torch's state-dict keys with torch's numbers, and beside
                # them only the bounds of ReLU6's Clip nodes
                keys = [k for k in tm.state_dict() if not k.endswith('num_batches_tracked')]
                inits = {i.name: onnx.numpy_helper.to_array(i) for i in model.graph.initializer}
                clip_bounds = {b for n in model.graph.node if n.op_type == 'Clip' for b in n.input[1:]}
                self.assertEqual(sorted(set(inits) - clip_bounds), sorted(keys))
                for k in keys:
                    self.assertTrue(np.array_equal(inits[k], tm.state_dict()[k].numpy()), k)
                # node names unique (ONNX Runtime refuses a model without; the checker does
                # not look): each block's ReLU, called twice, as torch names it
                names = [n.name for n in model.graph.node]
                self.assertEqual(len(names), len(set(names)))
                if name == 'resnet18':
                    self.assertLessEqual({'/layer1.0.relu/Relu', '/layer1.0.relu/Relu_1'}, set(names))
                ops = {n.op_type for n in model.graph.node}
                self.assertLessEqual({'Conv', 'BatchNormalization', 'Add', 'Gemm', 'Flatten'}, ops)
                self.assertIn('GlobalAveragePool', ops)
                self.assertIn('MaxPool' if name == 'resnet18' else 'Clip', ops)
                if name == 'mobilenet_v2':   # the depthwise convolutions keep their groups
                    groups = [a.i for n in model.graph.node if n.op_type == 'Conv'
                              for a in n.attribute if a.name == 'group']
                    self.assertIn(960, groups)

                back = gnn.onnx.import_model(path)
                self.assertIsInstance(back, gnn.fx.GraphModule)
                again = back(gnn.tensor(x)).numpy()
                self.assertTrue(np.allclose(again, found, rtol=1e-6, atol=1e-7), (name, abs(again - found).max()))
                for k in keys:
                    self.assertTrue(np.array_equal(back.state_dict()[k].numpy(), tm.state_dict()[k].numpy()), k)

                if not HAVE_ORT:
                    continue
                got = run_ort(path, {'image': x})['logits']
                self.assertEqual(got.shape, expected.shape)
                self.assertTrue(self.near(got, expected), (name, abs(got - expected).max()))
                self.assertTrue(self.near(got, found), (name, abs(got - found).max()))
                # the lowest opset, with a batch axis left open, run on another batch size
                path13 = os.path.join(d, name + '-13.onnx')
                gnn.onnx.export(gm, gnn.tensor(x), path13, input_names=['image'], output_names=['logits'],
                                dynamic_axes={'image': {0: 'batch'}, 'logits': {0: 'batch'}}, opset_version=13)
                onnx.checker.check_model(onnx.load(path13), full_check=True)
                x2 = np.random.RandomState(8).randn(2, 3, 64, 64).astype(np.float32)
                got = run_ort(path13, {'image': x2})['logits']
                self.assertEqual(got.shape, (2, 1000))
                self.assertTrue(self.near(got, gm(gnn.tensor(x2)).numpy()), name)

    def test_functional_adaptive_avg_pool2d(self):
        # mobilenet_v2 pools with the function, not the layer: both sizes the exporter writes
        class Pool(gnn.nn.Module):
            def __init__(self, size):
                super().__init__()
                self.size = size

            def forward(self, x):
                return gnn.nn.functional.adaptive_avg_pool2d(x, self.size)
        d = tempfile.mkdtemp()
        self.addCleanup(lambda: subprocess.run(['rm', '-rf', d]))
        x = np.random.RandomState(6).randn(2, 3, 6, 4).astype(np.float32)
        for size, op in (((1, 1), 'GlobalAveragePool'), (1, 'GlobalAveragePool'), ((3, 2), 'AveragePool')):
            with self.subTest(size=size):
                path = os.path.join(d, 'pool.onnx')
                gnn.onnx.export(Pool(size), gnn.tensor(x), path)
                model = onnx.load(path)
                onnx.checker.check_model(model, full_check=True)
                self.assertEqual([n.op_type for n in model.graph.node], [op])
                want = torch.nn.functional.adaptive_avg_pool2d(torch.from_numpy(x), size).numpy()
                if HAVE_ORT:
                    got = run_ort(path, {model.graph.input[0].name: x})[model.graph.output[0].name]
                    self.assertTrue(np.allclose(got, want, rtol=1e-5, atol=1e-6))
        with self.assertRaises(GLib.GError) as cm:
            gnn.onnx.export(Pool((4, 3)), gnn.tensor(x), os.path.join(d, 'never.onnx'))
        self.assertIn('to a size that does not divide the input has no ONNX form', cm.exception.message)

    def test_layer_called_twice(self):
        # one layer called twice: its ONNX nodes are named apart, as torch names them
        class Twice(gnn.nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = gnn.nn.Linear(3, 3)
                self.relu = gnn.nn.ReLU()

            def forward(self, x):
                return self.relu(self.fc(self.relu(x)))
        d = tempfile.mkdtemp()
        self.addCleanup(lambda: subprocess.run(['rm', '-rf', d]))
        path = os.path.join(d, 'twice.onnx')
        m = Twice()
        x = np.random.RandomState(7).randn(2, 3).astype(np.float32)
        gnn.onnx.export(m, gnn.tensor(x), path)
        model = onnx.load(path)
        self.assertEqual([n.name for n in model.graph.node], ['/relu/Relu', '/fc/Gemm', '/relu/Relu_1'])
        if HAVE_ORT:
            got = run_ort(path, {model.graph.input[0].name: x})[model.graph.output[0].name]
            self.assertTrue(np.allclose(got, m(gnn.tensor(x)).numpy(), rtol=1e-5, atol=1e-6))


if __name__ == '__main__':
    unittest.main()
