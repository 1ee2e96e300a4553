#!/usr/bin/python3
"""Inference of the graph transforms and of imported ONNX models, gnn next to PyTorch 1.13 and
ONNX Runtime in one run, the same weights and inputs, float32, the same thread count:

- gnn-train's default CNN, batch 64: the model as it is, and after
  gnn.fx.experimental.optimization.fuse (Conv+BatchNorm folded), beside torch's same pair;
- torchvision's resnet18 (random weights) at 1x3x224x224 and the CNN, exported by
  torch.onnx.export and run by gnn (gnn.onnx.import_model), by ONNX Runtime (the npm package
  onnxruntime-node, through tests/onnx/run-ort.js; skipped when it is not installed) and by torch;
- resnet18 built from gnn's layers (tests/python/vision_models.py) with the same weights: gnn
  eager, ONNX Runtime on gnn.onnx.export's file of it, and torch's resnet18.

    bench/run-bench.sh BUILD_DIR      (runs this after the other rows)
    bench/bench_onnx_torch.py [--threads N] [--quick] [--onnxruntime DIR]
"""
import io
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

from timing import measure_side_by_side as measure_set, side_by_side_args

HERE = os.path.dirname(os.path.abspath(__file__))


def cnn(lib):
    nn = lib.nn
    return nn.Sequential(
        nn.Conv2d(1, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(32, 64, 3, padding=1), nn.BatchNorm2d(64), nn.ReLU(), nn.MaxPool2d(2),
        nn.Flatten(), nn.Linear(64 * 7 * 7, 128), nn.ReLU(), nn.Dropout(0.25), nn.Linear(128, 10))


def ort_ms(ort_dir, data, x, repeat, threads):
    with tempfile.TemporaryDirectory() as d:
        model, inp, out = (os.path.join(d, n) for n in ('m.onnx', 'in.json', 'out.json'))
        with open(model, 'wb') as f:
            f.write(data)
        import onnx
        name = onnx.load_from_string(data).graph.input[0].name
        with open(inp, 'w') as f:
            json.dump({name: {'dims': list(x.shape), 'data': x.ravel().tolist()}}, f)
        subprocess.run(['node', os.path.join(HERE, '..', 'tests', 'onnx', 'run-ort.js'), model, inp, out,
                        str(repeat), str(threads)], check=True, env=dict(os.environ, NODE_PATH=ort_dir))
        with open(out) as f:
            result = json.load(f)
    outputs = [np.array(v['data'], np.float32).reshape(v['dims']) for k, v in result.items() if k != 'ms_per_run']
    return result['ms_per_run'] / 1e3, outputs[0]


def main():
    def more(parser):
        parser.add_argument('--onnxruntime', default=None,
                            help='the node_modules folder holding onnxruntime-node')
    args = side_by_side_args(__doc__, more)

    import torch
    import torchvision
    import gnn
    from gnn.fx.experimental.optimization import fuse
    from torch.fx.experimental.optimization import fuse as torch_fuse

    torch.set_num_threads(args.threads)
    rng = np.random.default_rng(0)
    print('Inference, float32: gnn vs PyTorch %s (and ONNX Runtime), %d threads each'
          % (torch.__version__, args.threads))
    print('%-28s %12s %12s %12s %10s %10s' % ('model', 'gnn ms', 'torch ms', 'ORT ms', 'gnn/torch', 'gnn/ORT'))

    torch.manual_seed(0)
    tm, gm = cnn(torch), cnn(gnn)
    tm.train()
    with torch.no_grad():
        tm(torch.randn(64, 1, 28, 28))
    gm.load_state_dict({k: gnn.tensor(v.detach().numpy()) for k, v in tm.state_dict().items()})
    tm.eval(), gm.eval()
    x = rng.standard_normal((64, 1, 28, 28), dtype=np.float32)
    xg, xt = gnn.tensor(x), torch.from_numpy(x)
    tf, gf = torch_fuse(tm), fuse(gm)
    rows = [('CNN, batch 64', gm, tm), ('CNN fused (Conv+BN), batch 64', gf, tf)]
    for name, g, t in rows:
        with torch.no_grad(), gnn.no_grad():
            e = t(xt).numpy()
            assert np.allclose(g(xg).numpy(), e, rtol=1e-4, atol=1e-4), name
            t_gnn, t_torch = measure_set([lambda: g(xg), lambda: t(xt)], args.min_time)
        print('%-28s %12.2f %12.2f %12s %10.2f %10s' % (name, t_gnn * 1e3, t_torch * 1e3, '', t_torch / t_gnn, ''))

    ort_dir = args.onnxruntime or os.path.join(HERE, '..', 'build', 'onnx-runtime', 'node_modules')
    have_ort = os.path.isdir(os.path.join(ort_dir, 'onnxruntime-node'))
    torch.manual_seed(0)
    r18 = torchvision.models.resnet18(weights=None).eval()
    xr = rng.standard_normal((1, 3, 224, 224), dtype=np.float32)
    cases = []
    for name, t, xin in (('resnet18 imported, 1x3x224', r18, xr), ('CNN imported, batch 64', tm, x)):
        buf = io.BytesIO()
        torch.onnx.export(t, (torch.from_numpy(xin),), buf, opset_version=17)
        data = buf.getvalue()
        cases.append((name, t, gnn.onnx.import_model(data), data, xin))
    # gnn's own resnet18 (tests/python/vision_models.py) with torchvision's weights: gnn eager,
    # and ONNX Runtime on gnn's export of it
    sys.path.insert(0, os.path.join(HERE, '..', 'tests', 'python'))
    import vision_models
    own = vision_models.resnet18()
    own.load_state_dict({k: gnn.tensor(v.detach().numpy()) for k, v in r18.state_dict().items()})
    own.eval()
    buf = io.BytesIO()
    gnn.onnx.export(own, gnn.tensor(xr), buf)
    cases.append(('resnet18 gnn-built, 1x3x224', r18, own, buf.getvalue(), xr))
    for name, t, g, data, xin in cases:
        xg, xt = gnn.tensor(xin), torch.from_numpy(xin)
        with torch.no_grad(), gnn.no_grad():
            e = t(xt).numpy()
            assert np.abs(g(xg).numpy() - e).max() <= 1e-4 * max(np.abs(e).max(), 1e-30), name
            t_gnn, t_torch = measure_set([lambda: g(xg), lambda: t(xt)], args.min_time)
        ort = ''
        ratio = ''
        if have_ort:
            t_ort, out = ort_ms(ort_dir, data, xin, 5 if args.quick else 20, args.threads)
            assert np.abs(out - e).max() <= 1e-4 * max(np.abs(e).max(), 1e-30), name
            ort, ratio = '%.2f' % (t_ort * 1e3), '%.2f' % (t_ort / t_gnn)
        print('%-28s %12.2f %12.2f %12s %10.2f %10s' % (name, t_gnn * 1e3, t_torch * 1e3, ort, t_torch / t_gnn, ratio))
    print('  (ratios above 1: gnn is faster)' + ('' if have_ort else '; ONNX Runtime not installed: '
                                                  'tools/gnn-dev test installs it into the build folder'))


if __name__ == '__main__':
    main()
