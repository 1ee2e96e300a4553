#!/usr/bin/python3
"""Writes the seed corpus of the fuzz targets into corpus/<target>/: small valid files that
gnn writes (safetensors of every dtype, module trees as JSON, checkpoints of the model the
checkpoint target loads into, before and after training steps, chrome traces of the
profiler) and IDX files, with a few
edge cases beside them. Run from the source tree against a build:
    meson devenv -C build /usr/bin/python3 ../tests/fuzzing/make-corpus.py
Files found by fuzzing (regression inputs) live in the same folders under names starting
with 'regress-', and corpus/fuzz-checkpoint/no-checksum-* are checkpoints gnn wrote before
checkpoints had a checksum; this script leaves those alone."""
import os
import struct
import sys
import tempfile

import gi
gi.require_version('Gnn', '1.0')
from gi.repository import Gnn, GLib  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def out(target, name, data):
    d = os.path.join(HERE, 'corpus', target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), 'wb') as f:
        f.write(data if isinstance(data, bytes) else data.encode())


def tensor(shape, dtype, seed):
    Gnn.manual_seed(seed)
    t = Gnn.Tensor.new_randn(shape, None, Gnn.Dtype.FLOAT32, None)
    return t if dtype == Gnn.Dtype.FLOAT32 else t.to_dtype(dtype)


def idx():
    # IDX: two zero bytes, the element type, the number of dimensions, big-endian sizes
    codes = {0x08: ('B', 1), 0x09: ('b', 1), 0x0B: ('>h', 2), 0x0C: ('>i', 4),
             0x0D: ('>f', 4), 0x0E: ('>d', 8)}
    for code, (fmt, size) in codes.items():
        for shape in ([3], [2, 3], [2, 2, 2]):
            n = 1
            for s in shape:
                n *= s
            head = bytes([0, 0, code, len(shape)]) + b''.join(struct.pack('>I', s) for s in shape)
            body = b''.join(struct.pack(fmt, i % 100) for i in range(n))
            out('fuzz-idx', 'type%02x-%dd' % (code, len(shape)), head + body)
    out('fuzz-idx', 'zero-size', bytes([0, 0, 8, 2]) + struct.pack('>II', 0, 5))
    out('fuzz-idx', 'truncated', bytes([0, 0, 8, 1]) + struct.pack('>I', 10) + b'\x01\x02')
    out('fuzz-idx', 'empty', b'')


def safetensors():
    dtypes = [Gnn.Dtype.FLOAT32, Gnn.Dtype.FLOAT64, Gnn.Dtype.FLOAT16, Gnn.Dtype.BFLOAT16,
              Gnn.Dtype.INT64, Gnn.Dtype.INT32, Gnn.Dtype.INT8, Gnn.Dtype.UINT8, Gnn.Dtype.BOOL]
    for i, dt in enumerate(dtypes):
        sd = Gnn.StateDict.new()
        sd.set_tensor('a', tensor([2, 3], dt, i))
        sd.set_tensor('b.c', tensor([4], dt, 10 + i))
        sd.set_tensor('s', tensor([], dt, 20 + i))
        out('fuzz-safetensors', 'dtype-%s' % dt.value_nick,
            Gnn.safetensors_save_to_bytes(sd, {'k': 'v'} if i % 2 else None).get_data())
    sd = Gnn.StateDict.new()
    out('fuzz-safetensors', 'no-tensors', Gnn.safetensors_save_to_bytes(sd, {'only': 'metadata'}).get_data())
    sd.set_tensor('empty', tensor([0, 3], Gnn.Dtype.FLOAT32, 1))
    sd.set_tensor('x' * 200 + '[[[', tensor([1], Gnn.Dtype.FLOAT32, 2))
    out('fuzz-safetensors', 'odd-names', Gnn.safetensors_save_to_bytes(sd, None).get_data())
    head = b'{"t":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}}'
    out('fuzz-safetensors', 'handmade', struct.pack('<Q', len(head)) + head + b'\0\0\x80?')
    out('fuzz-safetensors', 'nested', struct.pack('<Q', 205) + b'[' * 100 + b'0' + b']' * 100 + b'    ')
    out('fuzz-safetensors', 'empty', b'')


def models():
    k3 = [3, 3]
    mods = [
        Gnn.Sequential.new([Gnn.Linear.new(4, 3, True), Gnn.ReLU.new(), Gnn.Linear.new(3, 2, False)]),
        Gnn.Sequential.new([Gnn.Conv2d.new(1, 2, k3, [1, 1], [1, 1], [1, 1], 1, True, Gnn.Dtype.FLOAT32),
                            Gnn.BatchNorm2d.new(2), Gnn.MaxPool2d.new([2, 2], None, None, None, False),
                            Gnn.Flatten.new(1, -1), Gnn.Dropout.new(0.25)]),
        Gnn.Sequential.new([Gnn.Embedding.new(10, 3, -1, Gnn.Dtype.FLOAT32), Gnn.LayerNorm.new([3]),
                            Gnn.GELU.new('tanh'), Gnn.Unflatten.new(1, [3, 1])]),
        Gnn.Linear.new(2, 2, True),
    ]
    for i, m in enumerate(mods):
        out('fuzz-module-json', 'model-%d.json' % i, m.to_json(False))
        out('fuzz-module-json', 'model-%d-pretty.json' % i, m.to_json(True))
    out('fuzz-module-json', 'nested.json', '[' * 100 + ']' * 100)
    out('fuzz-module-json', 'empty.json', '')


def checkpoints():
    # the model, optimizer, scheduler, averaged model and generator of fuzz-checkpoint.c
    Gnn.manual_seed(3)
    model = Gnn.Sequential.new([Gnn.Linear.new(3, 4, True), Gnn.BatchNorm1d.new(4),
                                Gnn.Linear.new(4, 2, False)])
    group = Gnn.ParamGroup.new_from_module(model)
    opt = Gnn.Adam.new(group, 1e-3, 0.9, 0.999, 1e-8, 0.0, True, False)
    sched = Gnn.StepLR.new(opt, 2, 0.5, -1)
    ema = Gnn.AveragedModel.new(model, None, None, Gnn.AverageFunction.new_ema_multi(0.9), True)
    gen = Gnn.Generator.new(5)
    ckpt = Gnn.Checkpoint.new()
    ckpt.set_model(model)
    ckpt.set_optimizer(opt)
    ckpt.set_scheduler(sched)
    ckpt.add_averaged_model('ema', ema)
    ckpt.set_generator(gen)
    ckpt.set_metadata('epoch', '0')
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, 'c.safetensors')

        def save(name):
            ckpt.save(path)
            with open(path, 'rb') as f:
                out('fuzz-checkpoint', name, f.read())
        save('fresh')
        x = Gnn.Tensor.new_randn([5, 3], gen, Gnn.Dtype.FLOAT32, None)
        for step in range(3):
            opt.zero_grad(True)
            model(x).sum().backward()
            opt.step()
            ema.update_parameters(model)
            sched.step()
        ckpt.set_metadata('epoch', '3')
        save('trained')
        # the same with a data byte flipped: the checksum no longer fits
        with open(path, 'rb') as f:
            data = bytearray(f.read())
        data[-3] ^= 0x04
        out('fuzz-checkpoint', 'trained-flipped', bytes(data))
        model.train(False)
        ckpt.set_scheduler(None)
        ckpt.add_averaged_model('ema', None)
        save('model-optimizer-eval')
        ckpt.set_optimizer(None)
        save('model-only')


def traces():
    """Chrome traces of GnnProfiler (the viewer's Profile page reads them): a training step of
    a small model with a Linear shared twice, two steps in one trace, and edge cases."""
    import gi.module
    raw = gi.module.get_introspection_module('Gnn')
    Gnn.manual_seed(4)
    shared = Gnn.Linear.new(6, 6, True)
    model = Gnn.Sequential.new([Gnn.Linear.new(4, 6, True), Gnn.ReLU.new(), shared, shared,
                                Gnn.Linear.new(6, 2, True)])
    x = Gnn.Tensor.new_randn([3, 4], None, Gnn.Dtype.FLOAT32, None)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, 'trace.json')
        for name, steps in (('step', 1), ('two-steps', 2)):
            prof = Gnn.Profiler.new()
            prof.start()
            for k in range(steps):
                if k:
                    prof.step()
                raw.Tensor.sum_all(raw.Module.forward_tensor(model, x)).backward(None, False)
            prof.stop()
            prof.export_chrome_trace(path)
            with open(path, 'rb') as f:
                out('fuzz-chrome-trace', name + '.json', f.read())
    out('fuzz-chrome-trace', 'no-ids.json',
        '{"traceEvents": [{"name": "Net", "ph": "X", "cat": "module", "ts": 1, "dur": 9, "tid": 1},'
        '{"name": "0 (Linear)", "ph": "X", "cat": "module", "ts": 2, "dur": 3, "tid": 1},'
        '{"name": "gemm", "ph": "X", "cat": "kernel", "ts": 2, "dur": 3, "tid": 2}]}')
    out('fuzz-chrome-trace', 'cycle.json',
        '{"traceEvents": [{"name": "a", "ph": "X", "ts": 0, "dur": 1, "args": {"id": 0, "parent": 1}},'
        '{"name": "b", "ph": "X", "ts": 0, "dur": 1, "args": {"id": 1, "parent": 0}}]}')
    out('fuzz-chrome-trace', 'empty.json', '{"traceEvents": []}')


def graphs():
    """Graphs as JSON (Gnn.Graph.to_json): symbolic_trace's and trace's graphs of a small MLP
    and CNN with their shapes, one with every kind of argument, and edge cases."""
    from gi.repository import GObject
    import gnn
    import gnn.fx
    F = gnn.nn.functional

    class MLP(gnn.nn.Module):
        def __init__(self):
            super().__init__()
            self.fc1 = gnn.nn.Linear(4, 8)
            self.fc2 = gnn.nn.Linear(8, 2)

        def forward(self, x):
            return self.fc2(F.relu(self.fc1(x))).view(x.shape[0], -1) + 1

    Gnn.manual_seed(5)
    cnn = gnn.nn.Sequential(gnn.nn.Conv2d(1, 2, 3), gnn.nn.BatchNorm2d(2), gnn.nn.ReLU(),
                            gnn.nn.Flatten(), gnn.nn.Linear(8, 3))
    out('fuzz-graph-json', 'mlp.json', Gnn.fx.symbolic_trace(MLP()).graph.to_json(False))
    out('fuzz-graph-json', 'mlp-traced.json', gnn.fx.trace(MLP(), gnn.randn(3, 4)).graph.to_json(True))
    out('fuzz-graph-json', 'cnn-traced.json', gnn.fx.trace(cnn, gnn.randn(2, 1, 4, 4)).graph.to_json(False))
    g = Gnn.Graph.new()
    x = g.placeholder('x')
    args = Gnn.Args.new()
    for value in (GObject.Value(float, float('inf')), GObject.Value(float, float('nan')),
                  GObject.Value(GObject.TYPE_INT64, -7), GObject.Value(str, 'a "b"'),
                  GObject.Value(bool, False), GObject.Value(Gnn.Dtype, Gnn.Dtype.INT32)):
        args.add_value(value)
    node = GObject.Value(Gnn.GraphNode)
    node.set_object(x)
    inner = Gnn.Args.new()
    inner.add_value(node)
    tup = GObject.Value(Gnn.Args)
    tup.set_object(inner)
    args.add_value(tup)
    args.set_kwarg('out', GObject.Value(Gnn.Tensor))
    f = g.call_function('gnn.f', args)
    result = Gnn.Args.new()
    node.set_object(f)
    result.add_value(node)
    g.output(result)
    out('fuzz-graph-json', 'values.json', g.to_json(False))
    head = '{"format":"gnn.graph","version":1,"nodes":[{"name":"x","op":"placeholder","target":"x"},'
    out('fuzz-graph-json', 'cycle.json', head +
        '{"name":"a","op":"call_function","target":"f","args":[{"node":"b"}]},'
        '{"name":"b","op":"call_function","target":"f","args":[{"node":"a"}]},'
        '{"name":"output","op":"output","target":"output","args":[{"node":"b"}]}]}')
    out('fuzz-graph-json', 'deep-tuple.json', head +
        '{"name":"a","op":"call_function","target":"f","args":[' + '{"tuple":[' * 70 + '1' +
        ']}' * 70 + ']},{"name":"output","op":"output","target":"output","args":[{"node":"a"}]}]}')
    out('fuzz-graph-json', 'nested.json', '[' * 700 + ']' * 700)
    out('fuzz-graph-json', 'empty.json', '')


for part in sys.argv[1:] or ['idx', 'safetensors', 'models', 'checkpoints', 'traces', 'graphs']:
    globals()[part]()
