#!/usr/bin/python3
"""gnn-train --distributed under `mpirun -np 2` (run-mpi.sh): two ranks with batches of B on
their DistributedSampler shards end with the parameters of one process with batches of 2B
(a model without BatchNorm, whose batch statistics would differ); rank 0 alone prints and
writes the checkpoint, which records the world size; --resume of it by one process says that
it is resharded; a run whose ranks get SIGINT stops on every rank at the same batch, rank 0
saves, and the two ranks' --resume ends with the checkpoint of the uninterrupted run, byte for
byte.

    test_gnn_train_distributed.py RUN_MPI_SH BUILD_DIR/tools/gnn-train

Exits with 77 (skipped) when mpirun, the MPI module or Fashion-MNIST is absent."""
import json
import os
import signal
import struct
import subprocess
import sys
import tempfile

import numpy

RUN_MPI, GNN_TRAIN = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
DATA_DIR = '/usr/share/datasets/fashion-mnist'
MLP_JSON = '''{
  "type": "GnnSequential", "training": true, "properties": {},
  "children": [
    {"name": "0", "module": {"type": "GnnFlatten", "training": true,
                             "properties": {"start-dim": 1, "end-dim": -1}, "children": []}},
    {"name": "1", "module": {"type": "GnnLinear", "training": true,
                             "properties": {"in-features": 784, "out-features": 32, "bias": true,
                                            "dtype": "float32"}, "children": []}},
    {"name": "2", "module": {"type": "GnnReLU", "training": true, "properties": {}, "children": []}},
    {"name": "3", "module": {"type": "GnnLinear", "training": true,
                             "properties": {"in-features": 32, "out-features": 10, "bias": true,
                                            "dtype": "float32"}, "children": []}}
  ]
}'''
# 320 images: 5 steps of 64 per epoch for one process, 5 of 32 per rank for two
COMMON = ['--limit', '320', '--test-limit', '100', '--epochs', '2', '--threads', '1',
          '--optimizer', 'sgd', '--lr', '0.05', '--seed', '3']


def tensors(path):
    data = open(path, 'rb').read()
    n = struct.unpack('<Q', data[:8])[0]
    header = json.loads(data[8:8 + n])
    meta = header.pop('__metadata__', {})
    out = {}
    for key, info in header.items():
        if not key.startswith('model.') or info['dtype'] != 'F32':
            continue
        lo, hi = info['data_offsets']
        out[key] = numpy.frombuffer(data[8 + n + lo:8 + n + hi], dtype='<f4').reshape(info['shape'])
    return out, meta


def children(pid):
    """The processes whose parent is @pid (mpirun's ranks)."""
    out = []
    for entry in os.listdir('/proc'):
        if entry.isdigit():
            try:
                with open('/proc/%s/stat' % entry) as f:
                    fields = f.read().rsplit(')', 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                out.append(int(entry))
    return out


def main():
    if not os.path.exists(os.path.join(DATA_DIR, 'train-images-idx3-ubyte.gz')):
        print('Fashion-MNIST not installed: skipped')
        return 77
    with tempfile.TemporaryDirectory() as d:
        model = os.path.join(d, 'mlp.json')
        with open(model, 'w') as f:
            f.write(MLP_JSON)
        one = os.path.join(d, 'one.safetensors')
        two = os.path.join(d, 'two.safetensors')
        r = subprocess.run([GNN_TRAIN, '--model', model, '--batch-size', '64', '--save', one] +
                           COMMON, capture_output=True, text=True, timeout=120, cwd=d)
        assert r.returncode == 0, r.stdout + r.stderr
        r = subprocess.run(['sh', RUN_MPI, '2', GNN_TRAIN, '--distributed', '--model', model,
                            '--batch-size', '32', '--save', two] + COMMON,
                           capture_output=True, text=True, timeout=120, cwd=d)
        if r.returncode == 77:
            print(r.stdout)
            return 77
        assert r.returncode == 0, r.stdout + r.stderr
        out = r.stdout
        # rank 0 alone prints: one header, one line per epoch, one accuracy
        assert out.count('distributed: 2 ranks (mpi)') == 1, out
        assert out.count('test accuracy (model)') == 1, out
        assert out.count('Fashion-MNIST: 320 training') == 1, out
        assert sorted(os.listdir(d)) == ['mlp.json', 'one.safetensors', 'two.safetensors'], \
            os.listdir(d)
        a, meta_a = tensors(one)
        b, meta_b = tensors(two)
        assert meta_b['gnn-train.world-size'] == '2' and 'gnn-train.world-size' not in meta_a
        assert meta_a['gnn-train.samples'] == meta_b['gnn-train.samples'], (meta_a, meta_b)
        assert sorted(a) == sorted(b) and len(a) == 4, (sorted(a), sorted(b))
        print('largest difference:', max(float(numpy.abs(a[k] - b[k]).max()) for k in a),
              'largest change:', max(float(numpy.abs(a[k]).max()) for k in a))
        for key in a:
            # float32 sums over different splits of each batch, 10 SGD steps: within 1e-5
            assert numpy.allclose(a[key], b[key], rtol=1e-5, atol=1e-6), \
                (key, numpy.abs(a[key] - b[key]).max())
        # one process resuming the two ranks' checkpoint: resharded, and it says so
        r = subprocess.run([GNN_TRAIN, '--resume', two], capture_output=True, text=True,
                           timeout=120, cwd=d)
        assert r.returncode == 0, r.stdout + r.stderr
        assert 'training finished, evaluating only' in r.stdout, r.stdout
        assert 'written by 2 ranks, this run has 1' in r.stdout and 'not bit-exact' in r.stdout, \
            r.stdout
        # Ctrl-C of every rank (mpirun's children): they agree in a step, rank 0 saves, and
        # --resume with the same world size continues bit for bit
        part = os.path.join(d, 'part.safetensors')
        p = subprocess.Popen(['sh', RUN_MPI, '2', GNN_TRAIN, '--distributed', '--model', model,
                              '--batch-size', '32', '--save', part] + COMMON,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=d)
        seen = ''
        for line in p.stdout:          # the header comes before the first step
            seen += line
            if 'distributed: 2 ranks' in line:
                break
        ranks = children(p.pid)
        assert len(ranks) == 2, (ranks, seen)
        for pid in ranks:
            os.kill(pid, signal.SIGINT)
        seen += p.stdout.read()
        p.wait(timeout=120)
        assert 'interrupted at epoch 1, batch ' in seen, seen
        assert seen.count('interrupted at') == 1, seen
        r = subprocess.run(['sh', RUN_MPI, '2', GNN_TRAIN, '--distributed', '--resume', part,
                            '--save', part, '--threads', '1'],
                           capture_output=True, text=True, timeout=120, cwd=d)
        assert r.returncode == 0, r.stdout + r.stderr
        assert 'resuming' in r.stdout and 'not bit-exact' not in r.stdout, r.stdout
        with open(part, 'rb') as f1, open(two, 'rb') as f2:
            assert f1.read() == f2.read(), 'the resumed run differs from the uninterrupted one'
    print("gnn-train --distributed: 2 ranks match one process on the whole batch")
    return 0


if __name__ == '__main__':
    sys.exit(main())
