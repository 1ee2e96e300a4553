"""gnn.save and gnn.load, torch.save and torch.load as safetensors: a module's state dict is a
plain safetensors file (its header checked by hand), an optimizer's state dict and the
checkpoint idiom are files of Gnn.Checkpoint's format, which Gnn.Checkpoint loads into
objects; paths, os.PathLike and file objects; a whole module is a TypeError naming
state_dict(); a PyTorch pickle (both of torch 1.13's kinds) is an error that says how to
convert it."""
import inspect
import io
import json
import os
import pathlib
import shutil
import struct
import tempfile
import unittest

import numpy as np
import torch

from gnntest import Gnn, GLib, TOL, main, rand

import gnn
from gnn import nn

RTOL, ATOL = TOL[np.float32]


def net():
    return nn.Sequential(nn.Linear(4, 5), nn.ReLU(), nn.Linear(5, 3))


def train(model, optimizer, scheduler=None, steps=2):
    x, y = gnn.Tensor.from_numpy(rand((6, 4), seed=5)), gnn.Tensor.from_numpy(rand((6, 3), seed=6))
    for _ in range(steps):
        nn.MSELoss()(model(x), y).backward()
        optimizer.step()
        optimizer.zero_grad()
        if scheduler is not None:
            scheduler.step()


def header(path):
    with open(path, 'rb') as f:
        n = struct.unpack('<Q', f.read(8))[0]
        return json.loads(f.read(n))


class Files(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.dir)

    def path(self, name):
        return os.path.join(self.dir, name)

    def test_signatures_follow_torch(self):
        # allowed: pickle_module, pickle_protocol, _use_new_zipfile_serialization and
        # **pickle_load_args (gnn never pickles); weights_only defaults to None, any value
        # meaning what torch's True means; metadata is gnn's own keyword
        allowed = {'pickle_module', 'pickle_protocol', '_use_new_zipfile_serialization',
                   'pickle_load_args', 'weights_only', 'metadata'}
        for theirs, ours in ((torch.save, gnn.save), (torch.load, gnn.load)):
            want = [p for p in inspect.signature(theirs).parameters.values() if p.name not in allowed]
            got = [p for p in inspect.signature(ours).parameters.values() if p.name not in allowed]
            self.assertEqual([(p.name, p.kind, p.default) for p in got],
                             [(p.name, p.kind, p.default) for p in want])
        self.assertEqual(inspect.signature(gnn.load).parameters['weights_only'].kind,
                         inspect.Parameter.KEYWORD_ONLY)
        self.assertEqual(inspect.signature(gnn.save).parameters['metadata'].kind,
                         inspect.Parameter.KEYWORD_ONLY)

    def test_state_dict_round_trip(self):
        model = net()
        x = gnn.Tensor.from_numpy(rand((2, 4), seed=1))
        p = self.path('model.safetensors')
        gnn.save(model.state_dict(), p, metadata={'epoch': '3', 'note': 'first'})
        fresh = net()
        self.assertFalse(np.array_equal(fresh(x).detach().numpy(), model(x).detach().numpy()))
        loaded = gnn.load(p)
        self.assertEqual(list(loaded.keys()), list(model.state_dict().keys()))
        self.assertEqual(loaded.metadata, {'epoch': '3', 'note': 'first'})
        self.assertEqual(repr(fresh.load_state_dict(loaded)), '<All keys matched successfully>')
        np.testing.assert_array_equal(fresh(x).detach().numpy(), model(x).detach().numpy())
        # atomic: written beside the path and renamed, nothing else is left in the folder
        self.assertEqual(os.listdir(self.dir), ['model.safetensors'])

    def test_plain_safetensors_header(self):
        # Debian has no python3-safetensors: the header read by hand as the format defines it
        model = net()
        p = self.path('m.safetensors')
        gnn.save(model.state_dict(), pathlib.Path(p), metadata={'who': 'gnn'})
        h = header(p)
        self.assertEqual(h.pop('__metadata__'), {'who': 'gnn'})
        self.assertEqual(sorted(h), sorted(model.state_dict().keys()))
        self.assertEqual(h['0.weight']['dtype'], 'F32')
        self.assertEqual(h['0.weight']['shape'], [5, 4])
        with open(p, 'rb') as f:
            data = f.read()
        start = 8 + struct.unpack('<Q', data[:8])[0]
        b, e = h['2.bias']['data_offsets']
        np.testing.assert_array_equal(np.frombuffer(data[start + b:start + e], '<f4'),
                                      model.state_dict()['2.bias'].numpy())

    def test_headers_of_any_length_load(self):
        # a safetensors header of 128 bytes (or 128 + 256 k) starts the file with 0x80, the
        # first byte of a pickle: the loader must not take it for one
        seen_0x80 = False
        for n in range(1, 80):
            sd = {'k' * n: gnn.tensor([1.0, 2.0])}
            buf = io.BytesIO()
            gnn.save(sd, buf)
            data = buf.getvalue()
            seen_0x80 |= data[0] == 0x80
            back = gnn.load(io.BytesIO(data))
            self.assertEqual(back['k' * n].tolist(), [1.0, 2.0])
        self.assertTrue(seen_0x80)

    def test_torch_tensors_and_file_objects(self):
        # a torch state dict saved by gnn into a file object loads into a gnn module
        torch.manual_seed(0)
        t = torch.nn.Linear(4, 3)
        buf = io.BytesIO()
        gnn.save(t.state_dict(), buf)
        buf.seek(0)
        g = nn.Linear(4, 3)
        g.load_state_dict(gnn.load(buf))
        x = rand((2, 4), seed=2)
        np.testing.assert_allclose(g(gnn.Tensor.from_numpy(x)).detach().numpy(),
                                   t(torch.from_numpy(x)).detach().numpy(), rtol=RTOL, atol=ATOL)
        with open(self.path('f.safetensors'), 'wb') as f:
            gnn.save(g.state_dict(), f)
        with open(self.path('f.safetensors'), 'rb') as f:
            self.assertEqual(list(gnn.load(f, map_location='cpu', weights_only=True).keys()),
                             ['weight', 'bias'])

    def test_optimizer_state_dict(self):
        model = net()
        opt = gnn.optim.Adam(model.parameters(), lr=0.01, amsgrad=True)
        train(model, opt)
        p = self.path('opt.safetensors')
        gnn.save(opt.state_dict(), p)
        loaded = gnn.load(p)
        want = opt.state_dict()
        self.assertEqual(list(loaded.keys()), list(want.keys()))
        for key in want.keys():
            a, b = want[key], loaded[key]
            if isinstance(a, Gnn.Tensor):
                np.testing.assert_array_equal(b.numpy(), a.numpy(), err_msg=key)
            elif isinstance(a, GLib.Variant):
                self.assertEqual(b.unpack(), a.unpack(), key)
            else:
                self.assertEqual(b, a, key)
        other = gnn.optim.Adam(model.parameters(), lr=0.5)
        other.load_state_dict(loaded)
        self.assertEqual(other.param_groups[0]['lr'], 0.01)
        self.assertTrue(other.param_groups[0]['amsgrad'])
        self.assertEqual(header(p)['__metadata__']['gnn.checkpoint'], '1')

    def test_checkpoint_idiom(self):
        model = net()
        opt = gnn.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
        sched = gnn.optim.lr_scheduler.StepLR(opt, 2, gamma=0.5)
        train(model, opt, sched, steps=3)
        p = self.path('ckpt.safetensors')
        gnn.save({'model': model.state_dict(), 'optimizer': opt.state_dict(),
                  'scheduler': sched.state_dict(), 'epoch': 5, 'best': [0.25, 0.5], 'name': 'run'},
                 p, metadata={'host': 'here'})
        ck = gnn.load(p)
        self.assertEqual(sorted(ck), ['best', 'epoch', 'host', 'model', 'name', 'optimizer', 'scheduler'])
        self.assertEqual((ck['epoch'], ck['best'], ck['name'], ck['host']), (5, [0.25, 0.5], 'run', 'here'))
        self.assertEqual(ck['scheduler'], sched.state_dict())
        # resumed from the dict and resumed by Gnn.Checkpoint, both go on as the original
        ways = []
        for way in ('dict', 'Checkpoint'):
            m2 = net()
            o2 = gnn.optim.SGD(m2.parameters(), lr=0.7, momentum=0.9)
            s2 = gnn.optim.lr_scheduler.StepLR(o2, 2, gamma=0.5)
            if way == 'dict':
                m2.load_state_dict(ck['model'])
                o2.load_state_dict(ck['optimizer'])
                s2.load_state_dict(ck['scheduler'])
            else:
                c = Gnn.Checkpoint(model=m2, optimizer=o2, scheduler=s2)
                c.load(p)
                self.assertEqual(c.metadata['epoch'], '5')
            ways.append((m2, o2, s2))
        train(model, opt, sched, steps=2)
        for m2, o2, s2 in ways:
            train(m2, o2, s2, steps=2)
            self.assertEqual(s2.get_last_lr(), sched.get_last_lr())
            for a, b in zip(model.parameters(), m2.parameters()):
                np.testing.assert_array_equal(b.numpy(), a.numpy())

    def test_reads_what_checkpoint_saved(self):
        model = net()
        opt = gnn.optim.RMSprop(model.parameters(), lr=0.01)
        train(model, opt)
        c = Gnn.Checkpoint(model=model, optimizer=opt, metadata={'step': '7'})
        p = self.path('c.safetensors')
        c.save(p)
        ck = gnn.load(p)
        self.assertEqual(ck['step'], 7)
        self.assertEqual(list(ck['model'].keys()), list(model.state_dict().keys()))
        fresh = gnn.optim.RMSprop(model.parameters(), lr=0.5)
        fresh.load_state_dict(ck['optimizer'])
        self.assertEqual(fresh.param_groups[0]['lr'], 0.01)

    def test_refusals(self):
        model = net()
        p = self.path('x.safetensors')
        gnn.save(model.state_dict(), p)
        before = pathlib.Path(p).read_bytes()
        with self.assertRaises(TypeError) as cm:
            gnn.save(model, p)
        self.assertIn('state_dict()', str(cm.exception))
        with self.assertRaises(TypeError) as cm:
            gnn.save({'model': model}, p)
        self.assertIn('state_dict()', str(cm.exception))
        with self.assertRaises(TypeError) as cm:
            gnn.save(torch.nn.Linear(2, 2), p)
        self.assertIn('state_dict()', str(cm.exception))
        with self.assertRaises(TypeError) as cm:
            gnn.save(model.state_dict(), p, metadata={'epoch': 3})
        self.assertIn('metadata is a dict of strings', str(cm.exception))
        with self.assertRaises(TypeError) as cm:
            gnn.save({'model': model.state_dict(), 'when': object()}, p)
        self.assertIn('"when"', str(cm.exception))
        with self.assertRaises(TypeError) as cm:
            gnn.save({'model': model.state_dict(), 'ema': model.state_dict()}, p)
        self.assertIn('"ema"', str(cm.exception))
        with self.assertRaises(ValueError) as cm:
            gnn.save(model.state_dict(), p, metadata={'gnn.checkpoint': '1'})
        self.assertIn('"gnn.checkpoint"', str(cm.exception))

        class Net(torch.nn.Module):
            def forward(self, x):
                return x
        with self.assertRaises(TypeError) as cm:
            gnn.save(Net(), p)
        self.assertIn('state_dict()', str(cm.exception))
        with self.assertRaises(TypeError):
            gnn.save(model.state_dict(), 42)
        with self.assertRaises(TypeError) as cm:
            gnn.save(torch.optim.SGD(torch.nn.Linear(2, 2).parameters(), lr=0.1).state_dict(), p)
        self.assertIn("PyTorch's nested optimizer state", str(cm.exception))
        with self.assertRaises(ValueError):
            gnn.load(p, map_location=lambda storage, loc: storage)
        self.assertEqual(pathlib.Path(p).read_bytes(), before)

    def test_pytorch_pickles_say_how_to_convert(self):
        sd = torch.nn.Linear(2, 2).state_dict()
        for new_zip, kind in ((True, 'the zip file torch.save writes'), (False, 'the legacy format')):
            p = self.path('model-%s.pth' % new_zip)
            torch.save(sd, p, _use_new_zipfile_serialization=new_zip)
            with open(p, 'rb') as f:
                self.assertEqual(f.read(4) == b'PK\x03\x04', new_zip)
            for source in (p, io.BytesIO(pathlib.Path(p).read_bytes())):
                with self.subTest(new_zip=new_zip, source=type(source).__name__):
                    with self.assertRaises(GLib.Error) as cm:
                        gnn.load(source)
                    self.assertTrue(cm.exception.matches(Gnn.error_quark(), Gnn.Error.FILE_FORMAT))
                    msg = cm.exception.message
                    self.assertIn('found a PyTorch pickle (%s' % kind, msg)
                    self.assertIn("gnn.save(torch.load(", msg)
        # a zip without data.pkl is no torch pickle: the safetensors reader's own error
        import zipfile
        p = self.path('other.zip')
        with zipfile.ZipFile(p, 'w') as z:
            z.writestr('readme.txt', 'hi')
        with self.assertRaises(GLib.Error) as cm:
            gnn.load(p)
        self.assertNotIn('PyTorch pickle', cm.exception.message)

    def test_corrupt_checkpoint_metadata(self):
        # each entry of a checkpoint's metadata that gnn reads, broken in each way a file can
        # break it: a GNN_ERROR_FILE_FORMAT naming the entry and what was expected
        model = net()
        opt = gnn.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
        sched = gnn.optim.lr_scheduler.StepLR(opt, 2)
        train(model, opt, sched)
        p = self.path('c.safetensors')
        gnn.save({'model': model.state_dict(), 'optimizer': opt.state_dict(),
                  'scheduler': sched.state_dict()}, p)
        tensors, meta = Gnn.safetensors_load(p)
        meta = dict(meta)
        self.assertIn('gnn.optimizer', meta)
        deep = '[' * 100000 + ']' * 100000
        cases = [
            ('gnn.model.values', '{"a": ', 'is not JSON'),
            ('gnn.model.values', deep, 'nested too deeply'),
            ('gnn.model.values', '[1, 2]', 'is an array, expected a JSON object of strings'),
            ('gnn.model.values', '{"a": 1}', 'is an object with a member that is not a string'),
            ('gnn.model.values', '{"a": "int64:x"}', "expects 'variant:'"),
            ('gnn.optimizer', '"SGD"', 'is a string, expected a JSON object'),
            ('gnn.optimizer', '{"type": 3, "state": {}}', 'member "type" that is a number, expected a string'),
            ('gnn.optimizer', '{"type": "GnnSGD", "state": [' + deep + ']}', 'nested too deeply'),
            ('gnn.optimizer', '{"type": "GnnSGD", "state": {"x": {}}}', 'member "state"'),
            ('gnn.scheduler', '{"state": "{}"}', 'has no member "type" (expected a string)'),
            ('gnn.scheduler', '{"type": "GnnStepLR"}', 'has no member "state"'),
            ('gnn.scheduler', '{"type": "GnnStepLR", "state": null}', '"state" that is null'),
            ('gnn.scheduler', '{"type": "GnnStepLR", "state": "{1"}', 'is not a GVariant of type a{sv}'),
            ('gnn.generator', '{"seed": "1"}', 'has no member "offset"'),
            ('gnn.generator', '{"seed": "-1", "offset": "0"}', 'expected a string of decimal digits'),
            ('gnn.generator', '{"seed": "99999999999999999999", "offset": "0"}', 'unsigned 64-bit'),
            ('gnn.generator', '{"seed": 1, "offset": "0"}', 'member "seed" that is a number'),
            ('gnn.averaged.ema', '{"values": 7}', 'member "values" that is a number'),
        ]
        for key, text, expected in cases:
            with self.subTest(key=key, text=text[:40]):
                broken = dict(meta, **{key: text})
                q = self.path('broken.safetensors')
                Gnn.safetensors_save(tensors, broken, q)
                with self.assertRaises(GLib.Error) as cm:
                    gnn.load(q)
                self.assertTrue(cm.exception.matches(Gnn.error_quark(), Gnn.Error.FILE_FORMAT),
                                cm.exception)
                self.assertIn(key, cm.exception.message)
                self.assertIn(expected, cm.exception.message)
        # the user's own entries may be any text, JSON or not, deep or not
        for text in ('plain words', deep, '{"epoch": 3}'):
            q = self.path('user.safetensors')
            Gnn.safetensors_save(tensors, dict(meta, note=text), q)
            self.assertEqual(gnn.load(q)['note'], text if text != '{"epoch": 3}' else {'epoch': 3})

    def test_conversion_snippet_works(self):
        # the snippet of the message, run: torch.load then gnn.save, then gnn.load
        torch.manual_seed(1)
        t = torch.nn.Linear(3, 2)
        pth = self.path('m.pth')
        torch.save(t.state_dict(), pth)
        gnn.save(torch.load(pth, map_location='cpu'), self.path('model.safetensors'))
        g = nn.Linear(3, 2)
        g.load_state_dict(gnn.load(self.path('model.safetensors')))
        np.testing.assert_array_equal(g.weight.numpy(), t.weight.detach().numpy())


if __name__ == '__main__':
    main()
