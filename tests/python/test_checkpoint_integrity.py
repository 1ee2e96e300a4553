#!/usr/bin/python3
"""A checkpoint is a plain safetensors file that other readers open (read here by the format,
into torch tensors: python3-safetensors is not packaged for Debian 12); its tensors carry a
SHA-256 in __metadata__ ("gnn.sha256") that loading checks; a file written again by another
writer with another layout still loads, and files without the checksum (gnn's before it, or
a writer that drops it) load unchecked. A checkpoint whose optimizer state lacks a tensor the
optimizer needs is refused, naming it."""
import json
import os
import struct
import tempfile

import numpy as np
import torch

from gnntest import Gnn, main, ParityTest

# safetensors' dtype names and their numpy types (the ones this test's model uses)
NP_OF_ST = {'F32': np.float32, 'F64': np.float64, 'I64': np.int64}
ST_OF_NP = {np.dtype(v): k for k, v in NP_OF_ST.items()}


def read_safetensors(path):
    """The header, metadata and numpy arrays of a safetensors file, checked by the format:
    a little-endian u64 length, a JSON object of tensors and an optional "__metadata__" map
    of strings to strings, data offsets that tile the data area with no gap or overlap."""
    with open(path, 'rb') as f:
        data = f.read()
    (n,) = struct.unpack('<Q', data[:8])
    header = json.loads(data[8:8 + n].decode('utf-8'))
    body = data[8 + n:]
    meta = header.pop('__metadata__', {})
    assert all(isinstance(k, str) and isinstance(v, str) for k, v in meta.items())
    spans = sorted(tuple(v['data_offsets']) for v in header.values())
    end = 0
    for a, b in spans:
        assert a == end, (a, end)
        end = b
    assert end == len(body), (end, len(body))
    arrays = {}
    for name, v in header.items():
        a, b = v['data_offsets']
        arr = np.frombuffer(body[a:b], dtype=NP_OF_ST[v['dtype']]).reshape(v['shape'])
        arrays[name] = arr
    return meta, arrays


def write_safetensors(path, arrays, meta):
    """A safetensors file as safetensors' own writer lays it out (tensors by alignment, then
    name; the header padded with spaces to 8 bytes), unlike gnn's."""
    order = sorted(arrays, key=lambda k: (-arrays[k].dtype.itemsize, k))
    header, offset, chunks = {}, 0, []
    if meta is not None:
        header['__metadata__'] = meta
    for name in order:
        raw = np.ascontiguousarray(arrays[name]).tobytes()
        header[name] = {'dtype': ST_OF_NP[arrays[name].dtype], 'shape': list(arrays[name].shape),
                        'data_offsets': [offset, offset + len(raw)]}
        offset += len(raw)
        chunks.append(raw)
    text = json.dumps(header, separators=(',', ':')).encode()
    text += b' ' * (-len(text) % 8)
    with open(path, 'wb') as f:
        f.write(struct.pack('<Q', len(text)) + text + b''.join(chunks))


def make_run():
    Gnn.manual_seed(5)
    model = Gnn.Sequential.new([Gnn.Linear.new(4, 3, True), Gnn.BatchNorm1d.new(3),
                                Gnn.Linear.new(3, 2, True)])
    opt = Gnn.Adam(model.parameters(), lr=0.01, amsgrad=True)
    return model, opt


def train(model, opt, steps, seed):
    gen = Gnn.Generator.new(seed)
    for _ in range(steps):
        x = Gnn.Tensor.new_randn([5, 4], gen, Gnn.Dtype.FLOAT32, None)
        opt.zero_grad()
        model(x).pow(2).mean().backward()
        opt.step()


def checkpoint(model, opt):
    return Gnn.Checkpoint(model=model, optimizer=opt)


class CheckpointIntegrityTest(ParityTest):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.path = os.path.join(self.dir.name, 'run.safetensors')
        self.model, self.opt = make_run()
        train(self.model, self.opt, 3, 1)
        checkpoint(self.model, self.opt).save(self.path)

    def tearDown(self):
        self.dir.cleanup()

    def assert_loads_as_saved(self, path):
        model, opt = make_run()
        checkpoint(model, opt).load(path)
        for (name, a), b in zip(self.model.state_dict().items(), model.state_dict().values()):
            np.testing.assert_array_equal(a.numpy(), b.numpy(), err_msg=name)
        # and the runs go on alike
        train(self.model, self.opt, 2, 9)
        train(model, opt, 2, 9)
        for (name, a), b in zip(self.model.state_dict().items(), model.state_dict().values()):
            np.testing.assert_array_equal(a.numpy(), b.numpy(), err_msg=name)

    def test_other_readers_open_it(self):
        meta, arrays = read_safetensors(self.path)
        self.assertEqual(meta['gnn.checkpoint'], '1')
        self.assertRegex(meta['gnn.sha256'], '^[0-9a-f]{64}$')
        # torch gets the same weights from the bytes
        for name, t in self.model.state_dict().items():
            got = torch.from_numpy(arrays['model.' + name].copy())
            np.testing.assert_array_equal(got.numpy(), t.numpy(), err_msg=name)
        self.assertIn('optimizer.state.0.exp_avg_sq', arrays)

    def test_rewritten_by_another_writer_loads(self):
        meta, arrays = read_safetensors(self.path)
        other = os.path.join(self.dir.name, 'other.safetensors')
        write_safetensors(other, arrays, meta)
        with open(self.path, 'rb') as a, open(other, 'rb') as b:
            self.assertNotEqual(a.read(), b.read())   # another layout, the same tensors
        self.assert_loads_as_saved(other)

    def test_without_checksum_loads(self):
        meta, arrays = read_safetensors(self.path)
        del meta['gnn.sha256']
        old = os.path.join(self.dir.name, 'old.safetensors')
        write_safetensors(old, arrays, meta)
        self.assert_loads_as_saved(old)

    def test_changed_tensor_is_an_error(self):
        meta, arrays = read_safetensors(self.path)
        arrays = dict(arrays)
        weight = arrays['model.0.weight'].copy()
        weight.view(np.uint32)[1, 2] ^= 1      # one bit of one weight
        arrays['model.0.weight'] = weight
        bad = os.path.join(self.dir.name, 'bad.safetensors')
        write_safetensors(bad, arrays, meta)
        model, opt = make_run()
        before = model.state_dict()['0.weight'].numpy().copy()
        with self.assertRaises(Exception) as cm:
            checkpoint(model, opt).load(bad)
        msg = getattr(cm.exception, 'message', str(cm.exception))
        self.assertIn(bad, msg)
        self.assertIn('checksum', msg)
        self.assertIn(meta['gnn.sha256'], msg)
        np.testing.assert_array_equal(model.state_dict()['0.weight'].numpy(), before)
        with self.assertRaises(Exception):
            Gnn.Checkpoint.load_model(bad)

    def test_missing_optimizer_state_is_refused(self):
        # an older file (no checksum) whose optimizer state lacks one tensor Adam needs
        meta, arrays = read_safetensors(self.path)
        del meta['gnn.sha256']
        arrays = {k: v for k, v in arrays.items() if k != 'optimizer.state.2.exp_avg_sq'}
        self.assertEqual(len(arrays), len(read_safetensors(self.path)[1]) - 1)
        bad = os.path.join(self.dir.name, 'partial.safetensors')
        write_safetensors(bad, arrays, meta)
        model, opt = make_run()
        with self.assertRaises(Exception) as cm:
            checkpoint(model, opt).load(bad)
        msg = getattr(cm.exception, 'message', str(cm.exception))
        self.assertIn('"state.2.exp_avg_sq"', msg)
        self.assertIn(bad, msg)
        self.assertEqual(Gnn.Optimizer.state_dict(opt).get_keys(),
                         Gnn.Optimizer.state_dict(make_run()[1]).get_keys())


if __name__ == '__main__':
    main()
