#!/usr/bin/python3
"""Training stopped mid-run and resumed from a checkpoint continues exactly: a model with
BatchNorm, SGD with momentum and weight decay, a cosine schedule and an EMA AveragedModel are
saved into one safetensors file (tensors under prefixes, the non-tensor state in
__metadata__), loaded into fresh objects, and trained on; every parameter, buffer and
average ends bit-identical to an uninterrupted run."""
import json
import os
import tempfile

import numpy as np

from gnntest import Gnn, GLib, GObject, ParityTest, main, rand, to_gnn, to_np


def make_model():
    Gnn.manual_seed(7)
    return Gnn.Sequential.new([Gnn.Linear.new(6, 8, True), Gnn.BatchNorm1d.new(8),
                               Gnn.ReLU.new(), Gnn.Linear.new(8, 3, True)])


class Run:
    def __init__(self):
        self.model = make_model()
        self.opt = Gnn.SGD(self.model.parameters(), lr=0.1, momentum=0.9, weight_decay=1e-3,
                           nesterov=True)
        self.sched = Gnn.CosineAnnealingLR(self.opt, T_max=8)
        self.ema = Gnn.AveragedModel(self.model, multi_avg_fn=Gnn.get_ema_multi_avg_fn(0.9),
                                     use_buffers=True)
        self.data = [(to_gnn(rand([5, 6], seed=s)), to_gnn(rand([5, 3], seed=100 + s)))
                     for s in range(4)]

    def epoch(self):
        self.model.train()
        for x, y in self.data:
            self.opt.zero_grad()
            Gnn.mse_loss(self.model(x), y, Gnn.Reduction.MEAN).backward()
            self.opt.step()
            self.ema.update_parameters(self.model)
        self.sched.step()

    def save(self, path):
        tensors = Gnn.StateDict.new()
        meta = {}
        for prefix, sd in (('model.', self.model.state_dict()), ('ema.', self.ema.state_dict()),
                           ('optimizer.', Gnn.Optimizer.state_dict(self.opt))):
            for key in sd.get_keys():
                value = sd.get_value(key)
                if isinstance(value, Gnn.Tensor):
                    tensors.set_tensor(prefix + key, value)
                elif isinstance(value, GLib.Variant):
                    meta[prefix + key] = 'variant:' + value.print_(True)
                else:
                    meta[prefix + key] = 'double:' + repr(float(value))
        meta['scheduler'] = json.dumps(self.sched.state_dict())
        Gnn.safetensors_save(tensors, {'gnn.state': json.dumps(meta)}, path)

    def load(self, path):
        tensors, meta = Gnn.safetensors_load(path)
        meta = json.loads(meta['gnn.state'])
        parts = {'model.': Gnn.StateDict.new(), 'ema.': Gnn.StateDict.new(),
                 'optimizer.': Gnn.StateDict.new()}
        for key in tensors.get_keys():
            prefix = key.split('.', 1)[0] + '.'
            parts[prefix].set_tensor(key[len(prefix):], tensors.get_tensor(key))
        for key, text in meta.items():
            if key == 'scheduler':
                continue
            prefix = key.split('.', 1)[0] + '.'
            kind, value = text.split(':', 1)
            if kind == 'variant':
                v = GObject.Value(GLib.Variant, GLib.Variant.parse(None, value, None, None))
            else:
                v = GObject.Value(float, float(value))
            parts[prefix].set_value(key[len(prefix):], v)
        self.model.load_state_dict(parts['model.'], True, False)
        self.ema.load_state_dict(parts['ema.'], True, False)
        Gnn.Optimizer.load_state_dict(self.opt, parts['optimizer.'])
        self.sched.load_state_dict(json.loads(meta['scheduler']))

    def snapshot(self):
        out = {}
        for prefix, m in (('model.', self.model), ('ema.', self.ema)):
            sd = m.state_dict()
            for key in sd.get_keys():
                out[prefix + key] = to_np(sd.get_tensor(key)).copy()
        out['lr'] = np.array(self.sched.get_last_lr())
        return out


class ResumeTest(ParityTest):
    def test_resume_is_bit_identical(self):
        straight = Run()
        for _ in range(6):
            straight.epoch()

        first = Run()
        for _ in range(3):
            first.epoch()
        path = os.path.join(tempfile.mkdtemp(prefix='gnn-resume-'), 'ckpt.safetensors')
        first.save(path)
        del first

        resumed = Run()           # fresh objects, other initial weights would differ anyway
        resumed.load(path)
        os.unlink(path)
        os.rmdir(os.path.dirname(path))
        for _ in range(3):
            resumed.epoch()

        a, b = straight.snapshot(), resumed.snapshot()
        self.assertEqual(sorted(a), sorted(b))
        for key in a:
            np.testing.assert_array_equal(b[key], a[key], err_msg=key)
        self.assertEqual(int(to_np(resumed.ema.state_dict().get_tensor('n_averaged'))), 24)


if __name__ == '__main__':
    main()
