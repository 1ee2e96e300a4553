#!/usr/bin/python3
"""safetensors between gnn and torch. torch 1.13 has no safetensors reader and Debian 12 no
python3-safetensors, so this test writes and reads the format by hand (a little-endian
64-bit length, a JSON header, the raw bytes), from and into torch tensors."""
import json
import os
import struct
import tempfile

import numpy as np
import torch

from gnntest import Gnn, GLib, ParityTest, main, rand, to_gnn, to_np

TORCH_DTYPES = {
    'F32': torch.float32, 'F64': torch.float64, 'I64': torch.int64, 'BOOL': torch.bool,
    'U8': torch.uint8, 'F16': torch.float16, 'BF16': torch.bfloat16,
}
NAMES = {v: k for k, v in TORCH_DTYPES.items()}


def torch_save(tensors, metadata=None):
    """the safetensors bytes of a dict of torch tensors, as the reference writer lays them out"""
    header, blobs, offset = {}, [], 0
    if metadata:
        header['__metadata__'] = metadata
    for name, t in tensors.items():
        t = t.contiguous()
        raw = t.reshape(-1).view(torch.uint8).numpy().tobytes() if t.numel() else b''
        if t.dtype == torch.bool or t.dtype == torch.uint8:
            raw = t.numpy().tobytes()
        header[name] = {'dtype': NAMES[t.dtype], 'shape': list(t.shape),
                        'data_offsets': [offset, offset + len(raw)]}
        blobs.append(raw)
        offset += len(raw)
    text = json.dumps(header).encode()
    text += b' ' * (-len(text) % 8)
    return struct.pack('<Q', len(text)) + text + b''.join(blobs)


def torch_load(data):
    """a dict of torch tensors and the metadata from safetensors bytes"""
    (n,) = struct.unpack('<Q', data[:8])
    header = json.loads(data[8:8 + n])
    body = data[8 + n:]
    meta = header.pop('__metadata__', None)
    out = {}
    for name, e in header.items():
        b, end = e['data_offsets']
        dt = TORCH_DTYPES[e['dtype']]
        raw = bytearray(body[b:end])
        t = torch.frombuffer(raw, dtype=torch.uint8) if raw else torch.empty(0, dtype=torch.uint8)
        out[name] = t.view(dt).reshape(e['shape']) if dt != torch.uint8 else t.reshape(e['shape'])
    return out, meta


def torch_tensors():
    g = torch.Generator().manual_seed(0)
    return {
        'fc.weight': torch.randn(4, 3, generator=g),
        'fc.bias': torch.randn(4, generator=g, dtype=torch.float64),
        'bn.num_batches_tracked': torch.tensor(17, dtype=torch.int64),
        'mask': torch.tensor([True, False, True]),
        'img': torch.arange(6, dtype=torch.uint8).reshape(2, 3),
        'half': torch.randn(5, generator=g).to(torch.float16),
        'brain': torch.randn(2, 2, generator=g).to(torch.bfloat16),
        'empty': torch.zeros(0, 3),
    }


def gnn_to_torch(t):
    dt = t.get_dtype()
    if dt in (Gnn.Dtype.FLOAT16, Gnn.Dtype.BFLOAT16):
        raw = bytearray(t.get_bytes().get_data())
        tt = torch.frombuffer(raw, dtype=torch.float16 if dt == Gnn.Dtype.FLOAT16 else torch.bfloat16)
        return tt.reshape(list(t.get_shape()))
    return torch.from_numpy(np.array(to_np(t)))


class SafetensorsTest(ParityTest):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix='gnn-st-')

    def tearDown(self):
        for f in os.listdir(self.dir):
            os.unlink(os.path.join(self.dir, f))
        os.rmdir(self.dir)

    def test_torch_file_loads_in_gnn(self):
        tensors = torch_tensors()
        path = os.path.join(self.dir, 'from-torch.safetensors')
        with open(path, 'wb') as f:
            f.write(torch_save(tensors, {'format': 'pt', 'note': 'written by hand'}))
        sd, meta = Gnn.safetensors_load(path)
        self.assertEqual(meta, {'format': 'pt', 'note': 'written by hand'})
        self.assertEqual(sorted(sd.get_keys()), sorted(tensors))
        for name, t in tensors.items():
            g = sd.get_tensor(name)
            self.assertEqual(list(g.get_shape()), list(t.shape), name)
            self.assertEqual(NAMES[t.dtype], {
                Gnn.Dtype.FLOAT32: 'F32', Gnn.Dtype.FLOAT64: 'F64', Gnn.Dtype.INT64: 'I64',
                Gnn.Dtype.BOOL: 'BOOL', Gnn.Dtype.UINT8: 'U8', Gnn.Dtype.FLOAT16: 'F16',
                Gnn.Dtype.BFLOAT16: 'BF16'}[g.get_dtype()], name)
            self.assertTrue(torch.equal(gnn_to_torch(g), t), name)

    def test_gnn_file_loads_in_torch(self):
        sd = Gnn.StateDict.new()
        w = rand([3, 5], seed=1)
        sd.set_tensor('layer.weight', to_gnn(w))
        sd.set_tensor('steps', to_gnn(np.array(42, dtype=np.int64)))
        sd.set_tensor('d', to_gnn(rand([2, 2], dtype=np.float64, seed=2)))
        sd.set_tensor('h', to_gnn(w).to_dtype(Gnn.Dtype.BFLOAT16))
        path = os.path.join(self.dir, 'from-gnn.safetensors')
        Gnn.safetensors_save(sd, {'epoch': '4'}, path)
        with open(path, 'rb') as f:
            data = f.read()
        (n,) = struct.unpack('<Q', data[:8])
        self.assertEqual(n % 8, 0)                       # data 8-byte aligned
        tensors, meta = torch_load(data)
        self.assertEqual(meta, {'epoch': '4'})
        self.assertEqual(list(tensors), ['layer.weight', 'steps', 'd', 'h'])
        self.assertTrue(torch.equal(tensors['layer.weight'], torch.from_numpy(w)))
        self.assertEqual(tensors['steps'].item(), 42)
        self.assertEqual(tensors['steps'].dtype, torch.int64)
        self.assertEqual(tensors['steps'].shape, torch.Size([]))
        self.assertTrue(torch.equal(tensors['h'], torch.from_numpy(w).to(torch.bfloat16)))

    def test_module_state_through_torch(self):
        """a torch model's weights, saved by hand, load into the same gnn model, which then
        computes what torch computes"""
        torch.manual_seed(3)
        tm = torch.nn.Sequential(torch.nn.Linear(6, 4), torch.nn.ReLU(), torch.nn.Linear(4, 2))
        path = os.path.join(self.dir, 'model.safetensors')
        with open(path, 'wb') as f:
            f.write(torch_save({k: v.detach() for k, v in tm.state_dict().items()}))
        gm = Gnn.Sequential.new([Gnn.Linear.new(6, 4, True), Gnn.ReLU.new(), Gnn.Linear.new(4, 2, True)])
        sd, _ = Gnn.safetensors_load(path)
        gm.load_state_dict(sd, True, False)
        x = rand([3, 6], seed=9)
        self.assert_close(to_np(gm(to_gnn(x))), tm(torch.from_numpy(x)).detach().numpy(), 1e-5, 1e-6)

    def test_corrupt_file_raises(self):
        path = os.path.join(self.dir, 'bad.safetensors')
        good = torch_save({'a': torch.ones(4)})
        with open(path, 'wb') as f:
            f.write(good[:-3])
        with self.assertRaises(GLib.Error) as cm:
            Gnn.safetensors_load(path)
        self.assertIn('lie outside the 13 bytes of data', cm.exception.message)


if __name__ == '__main__':
    main()
