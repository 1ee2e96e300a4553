#!/usr/bin/python3
"""The module tree as JSON (Gnn.Module.to_json / new_from_json) and Gnn.Checkpoint from
Python: models built like torch ones rebuild to the same printed form and state-dict keys and
shapes as torch's, Python subclasses rebuild by their __gtype_name__, bad JSON raises."""
import json
import os
import tempfile

import numpy as np
import torch
from torch import nn

from gnntest import Gnn, GLib, GObject, ParityTest, main, rand, to_gnn, to_np


def construct_int(default=0):
    return GObject.Property(type=int, default=default,
                            flags=GObject.ParamFlags.READWRITE | GObject.ParamFlags.CONSTRUCT_ONLY)


class Block(Gnn.Module):
    """A Python module whose setup makes its children, with a read-write property."""
    __gtype_name__ = 'TestJsonBlock'
    width = construct_int(2)
    scale = GObject.Property(type=float, default=1.0)
    setups = 0

    def do_setup(self):
        type(self).setups += 1
        self.fc = Gnn.Linear.new(self.width, self.width, True)
        self.act = Gnn.Tanh.new()
        return True

    def do_forward(self, args):
        return Gnn.Args.pack(self.act(self.fc(args[0])).mul_scalar(self.scale))


def same_structure(test, gm, tm):
    test.assertEqual(str(gm), str(tm))
    gsd, tsd = gm.state_dict(), tm.state_dict()
    test.assertEqual(list(gsd.get_keys()), list(tsd.keys()))
    for key in tsd:
        test.assertEqual(list(gsd.get_tensor(key).get_shape()), list(tsd[key].shape), key)


class ModuleJsonTest(ParityTest):
    def models(self):
        k3 = GLib.Variant('ax', [3, 3])
        return [
            (Gnn.Sequential.new([Gnn.Linear.new(6, 8, True), Gnn.BatchNorm1d.new(8), Gnn.ReLU.new(),
                                 Gnn.Dropout.new(0.25), Gnn.Linear.new(8, 3, False)]),
             nn.Sequential(nn.Linear(6, 8), nn.BatchNorm1d(8), nn.ReLU(), nn.Dropout(0.25),
                           nn.Linear(8, 3, bias=False))),
            (Gnn.Sequential.new([Gnn.Conv2d(in_channels=1, out_channels=4, kernel_size=k3,
                                            padding=GLib.Variant('ax', [1, 1])),
                                 Gnn.GroupNorm.new(2, 4), Gnn.GELU.new('tanh'),
                                 Gnn.MaxPool2d.new([2, 2], None, None, None, False),
                                 Gnn.Flatten.new(1, -1), Gnn.Linear.new(4 * 14 * 14, 10, True),
                                 Gnn.LogSoftmax.new(1)]),
             nn.Sequential(nn.Conv2d(1, 4, 3, padding=1), nn.GroupNorm(2, 4), nn.GELU('tanh'),
                           nn.MaxPool2d((2, 2)), nn.Flatten(), nn.Linear(4 * 14 * 14, 10), nn.LogSoftmax(1))),
            (Gnn.ModuleList.new([Gnn.Embedding.new(10, 4, -1, Gnn.Dtype.FLOAT32),
                                 Gnn.LayerNorm.new([4]), Gnn.LeakyReLU.new(0.1)]),
             nn.ModuleList([nn.Embedding(10, 4, padding_idx=-1), nn.LayerNorm(4), nn.LeakyReLU(0.1)])),
        ]

    def test_torch_equivalent_models(self):
        for gm, tm in self.models():
            same_structure(self, gm, tm)
            text = gm.to_json(False)
            tree = json.loads(text)
            self.assertEqual(tree['type'], gm.__gtype__.name)
            back = Gnn.Module.new_from_json(text, -1)
            same_structure(self, back, tm)
            self.assertEqual(back.to_json(False), text)

    def test_module_dict_and_training(self):
        d = Gnn.ModuleDict.new()
        d.set('enc', Gnn.Linear.new(3, 2, True))
        d.set('dec', Gnn.Linear.new(2, 3, True))
        d.get('dec').eval()
        back = Gnn.Module.new_from_json(d.to_json(True), -1)
        self.assertEqual(str(back), str(d))
        self.assertTrue(back.get('enc').get_training())
        self.assertFalse(back.get('dec').get_training())

    def test_python_subclass(self):
        outer = Gnn.Sequential.new([Block(width=3), Gnn.Linear.new(3, 1, True)])
        outer[0].props.scale = 0.5
        text = outer.to_json(False)
        tree = json.loads(text)
        self.assertEqual(tree['children'][0]['module']['type'], 'TestJsonBlock')
        self.assertEqual(tree['children'][0]['module']['properties'], {'width': 3, 'scale': 0.5})
        before = Block.setups
        back = Gnn.Module.new_from_json(text, -1)
        self.assertEqual(Block.setups, before + 1)            # setup ran once, children not doubled
        self.assertIsInstance(back[0], Block)
        self.assertEqual(back[0].width, 3)
        self.assertEqual(back[0].props.scale, 0.5)
        self.assertEqual([n for n, _ in back.named_children()], ['0', '1'])
        self.assertEqual(sorted(back.state_dict().get_keys()), sorted(outer.state_dict().get_keys()))
        # the weights, loaded, give the same outputs
        back.load_state_dict(outer.state_dict(), True, False)
        x = to_gnn(rand([2, 3]))
        np.testing.assert_array_equal(to_np(back(x)), to_np(outer(x)))

        # a child made by setup, described with another type or construct-only value
        bad = json.loads(text)
        bad['children'][0]['module']['children'][0]['module']['type'] = 'GnnTanh'
        with self.assertRaises(GLib.Error) as cm:
            Gnn.Module.new_from_json(json.dumps(bad), -1)
        self.assertIn('made its child \'fc\' a GnnLinear, the JSON says GnnTanh', cm.exception.message)
        bad = json.loads(text)
        bad['children'][0]['module']['children'][0]['module']['properties']['in-features'] = 5
        with self.assertRaises(GLib.Error) as cm:
            Gnn.Module.new_from_json(json.dumps(bad), -1)
        self.assertIn('in-features', cm.exception.message)

    def test_shared_modules(self):
        lin = Gnn.Linear.new(2, 2, True)
        seq = Gnn.Sequential.new([lin, Gnn.ReLU.new(), lin])
        tree = json.loads(seq.to_json(False))
        self.assertEqual(tree['children'][2]['module'], {'shared': '0'})
        back = Gnn.Module.new_from_json(seq.to_json(False), -1)
        self.assertIs(back[0], back[2])

    def test_errors(self):
        cases = [
            ('{"type": "Nope"}', Gnn.Error.INVALID_ARGUMENT, "'Nope', which is not registered"),
            ('{"type": "GnnLinear", "properties": {"in-features": 2.5}}', Gnn.Error.FILE_FORMAT,
             "property 'in-features' expects an integer, found a number"),
            ('{"type": "GnnLinear", "properties": {"bias": "yes"}}', Gnn.Error.FILE_FORMAT,
             "property 'bias' expects a boolean, found a string"),
            ('{"type": "GnnLinear"', Gnn.Error.FILE_FORMAT, 'not valid JSON'),
            ('[1, 2]', Gnn.Error.FILE_FORMAT, 'found an array'),
        ]
        for text, code, needle in cases:
            with self.assertRaises(GLib.Error) as cm:
                Gnn.Module.new_from_json(text, -1)
            self.assertTrue(cm.exception.matches(Gnn.Error.quark(), code), (text, cm.exception.message))
            self.assertIn(needle, cm.exception.message)


class Holder(Gnn.Module):
    """A Python module with a property holding any GObject."""
    __gtype_name__ = 'TestJsonHolder'
    other = GObject.Property(type=GObject.Object)


class ModuleJsonTensorsTest(ParityTest):
    def test_parameter_containers(self):
        """ParameterList / ParameterDict (tensors added after construction) rebuild with the
        shapes and dtypes torch's state dict has, and the state dict loads into them."""
        p0 = Gnn.Parameter.new(to_gnn(rand([3, 4], seed=1)), True)
        p1 = Gnn.Parameter.new(to_gnn(rand([5], dtype=np.float64, seed=2)), False)
        gm = Gnn.ModuleDict({'plist': Gnn.ParameterList([p0, p1]),
                             'pdict': Gnn.ParameterDict({'alpha': to_gnn(rand([2, 2], seed=3)),
                                                         'beta': to_gnn(rand([], seed=4))}),
                             'lin': Gnn.Linear.new(4, 2, True)})
        tm = nn.ModuleDict({'plist': nn.ParameterList([nn.Parameter(torch.zeros(3, 4)),
                                                       nn.Parameter(torch.zeros(5, dtype=torch.float64),
                                                                    requires_grad=False)]),
                            'pdict': nn.ParameterDict({'alpha': nn.Parameter(torch.zeros(2, 2)),
                                                       'beta': nn.Parameter(torch.zeros(()))}),
                            'lin': nn.Linear(4, 2)})
        text = gm.to_json(False)
        tree = json.loads(text)
        plist = tree['children'][0]['module']
        self.assertEqual(plist['type'], 'GnnParameterList')
        self.assertEqual(plist['parameters'],
                         [{'name': '0', 'shape': [3, 4], 'dtype': 'float32', 'requires-grad': True},
                          {'name': '1', 'shape': [5], 'dtype': 'float64', 'requires-grad': False}])
        back = Gnn.Module.new_from_json(text, -1)
        self.assertEqual(back.to_json(False), text)
        gsd, tsd = back.state_dict(), tm.state_dict()
        self.assertEqual(list(gsd.get_keys()), list(tsd.keys()))
        for key in tsd:
            t = gsd.get_tensor(key)
            self.assertEqual(list(t.get_shape()), list(tsd[key].shape), key)
            self.assertEqual(to_np(t).dtype, tsd[key].numpy().dtype, key)
        self.assertFalse(back['plist'][1].get_requires_grad())
        back.load_state_dict(gm.state_dict(), True, False)
        for key in gm.state_dict().get_keys():
            np.testing.assert_array_equal(to_np(back.state_dict().get_tensor(key)),
                                          to_np(gm.state_dict().get_tensor(key)), err_msg=key)
        # and from a checkpoint alone
        path = os.path.join(tempfile.mkdtemp(prefix='gnn-json-'), 'c.safetensors')
        Gnn.Checkpoint(model=gm).save(path)
        rebuilt = Gnn.Checkpoint.load_model(path)
        np.testing.assert_array_equal(to_np(rebuilt['pdict']['alpha']), to_np(gm['pdict']['alpha']))
        os.unlink(path)
        os.rmdir(os.path.dirname(path))

    def test_object_properties(self):
        # a tensor-valued property is carried with its values
        w = to_gnn(np.array([0.5, 2.0, -1.0], np.float32))
        loss = Gnn.BCELoss.new(w, Gnn.Reduction.SUM)
        back = Gnn.Module.new_from_json(loss.to_json(False), -1)
        np.testing.assert_array_equal(to_np(back.get_weight()), to_np(w))
        # an EMA function too
        ema = Gnn.AveragedModel(Gnn.Linear.new(2, 2, True), multi_avg_fn=Gnn.get_ema_multi_avg_fn(0.8))
        tree = json.loads(ema.to_json(False))
        self.assertEqual(tree['properties']['multi-avg-fn'],
                         {'average-function': 'ema', 'multi': True, 'decay': 0.8})
        back = Gnn.Module.new_from_json(ema.to_json(False), -1)
        self.assertAlmostEqual(back.get_multi_avg_fn().get_decay(), 0.8)
        # any other object is refused, naming the property; None is carried
        holder = Gnn.ModuleList([Holder(other=Gnn.Generator.new(1))])
        with self.assertRaises(GLib.Error) as cm:
            holder.to_json(False)
        self.assertTrue(cm.exception.matches(Gnn.Error.quark(), Gnn.Error.NOT_SUPPORTED), cm.exception.message)
        self.assertIn('TestJsonHolder:other holds a GnnGenerator', cm.exception.message)
        holder[0].props.other = None
        tree = json.loads(holder.to_json(False))
        self.assertIsNone(tree['children'][0]['module']['properties']['other'])
        back = Gnn.Module.new_from_json(holder.to_json(False), -1)
        self.assertIsInstance(back[0], Holder)


class CheckpointOverrideTest(ParityTest):
    def test_keywords_and_round_trip(self):
        Gnn.manual_seed(3)
        model = Gnn.Sequential.new([Gnn.Linear.new(4, 4, True), Block(width=4)])
        opt = Gnn.SGD(model.parameters(), lr=0.1, momentum=0.9)
        sched = Gnn.CosineAnnealingLR(opt, T_max=4)
        ema = Gnn.AveragedModel(model, multi_avg_fn=Gnn.get_ema_multi_avg_fn(0.9), use_buffers=True)
        x, y = to_gnn(rand([3, 4], seed=1)), to_gnn(rand([3, 4], seed=2))
        for _ in range(2):
            opt.zero_grad()
            Gnn.mse_loss(model(x), y, Gnn.Reduction.MEAN).backward()
            opt.step()
            ema.update_parameters(model)
            sched.step()
        ckpt = Gnn.Checkpoint(model=model, optimizer=opt, scheduler=sched, averaged={'ema': ema},
                              metadata={'epoch': 2})
        self.assertIs(ckpt.props.model, model)
        self.assertEqual(ckpt.metadata, {'epoch': '2'})
        self.assertIs(ckpt.averaged['ema'], ema)
        path = os.path.join(tempfile.mkdtemp(prefix='gnn-json-'), 'c.safetensors')
        ckpt.save(path)

        rebuilt = Gnn.Checkpoint.load_model(path)
        self.assertIsInstance(rebuilt[1], Block)
        for key in model.state_dict().get_keys():
            np.testing.assert_array_equal(to_np(rebuilt.state_dict().get_tensor(key)),
                                          to_np(model.state_dict().get_tensor(key)), err_msg=key)
        self.assertEqual(json.loads(Gnn.Checkpoint.peek_model_json(path))['type'], 'GnnSequential')

        Gnn.manual_seed(4)
        model2 = Gnn.Sequential.new([Gnn.Linear.new(4, 4, True), Block(width=4)])
        opt2 = Gnn.SGD(model2.parameters(), lr=0.1, momentum=0.9)
        sched2 = Gnn.CosineAnnealingLR(opt2, T_max=4)
        ema2 = Gnn.AveragedModel(model2, multi_avg_fn=Gnn.get_ema_multi_avg_fn(0.9), use_buffers=True)
        ckpt2 = Gnn.Checkpoint(model=model2, optimizer=opt2, scheduler=sched2, averaged={'ema': ema2})
        ckpt2.load(path)
        self.assertEqual(ckpt2.metadata, {'epoch': '2'})
        self.assertEqual(sched2.get_last_lr(), sched.get_last_lr())
        for a, b in ((model, model2), (ema, ema2)):
            for key in a.state_dict().get_keys():
                np.testing.assert_array_equal(to_np(b.state_dict().get_tensor(key)),
                                              to_np(a.state_dict().get_tensor(key)), err_msg=key)
        # torch reads the same file: tensors under their prefixes
        try:
            from safetensors.torch import load_file
        except ImportError:
            load_file = None
        if load_file is not None:
            tensors = load_file(path)
            self.assertIn('model.0.weight', tensors)
            self.assertIn('averaged.ema.n_averaged', tensors)
        # the training flags come back per module
        model[1].eval()
        ckpt.save(path)
        model2.train(True)
        ckpt2.load(path)
        self.assertTrue(model2.get_training())
        self.assertTrue(model2[0].get_training())
        self.assertFalse(model2[1].get_training())
        self.assertFalse(model2[1].fc.get_training())
        with open(path, 'r+b') as f:
            f.truncate(os.path.getsize(path) - 1)
        with self.assertRaises(GLib.Error) as cm:
            ckpt2.load(path)
        self.assertTrue(cm.exception.matches(Gnn.Error.quark(), Gnn.Error.FILE_FORMAT))
        os.unlink(path)
        os.rmdir(os.path.dirname(path))


def computed_classes(lib):
    """A torch-way Python parametrization (the tutorial's Symmetric) and one with a buffer and
    a right_inverse, in gnn or in torch."""
    class JsonSymmetric(lib.nn.Module):
        def forward(self, X):
            return X.triu() + X.triu(1).transpose(-1, -2)

    class JsonScale(lib.nn.Module):
        def __init__(self):
            super().__init__()
            self.register_buffer('factor', lib.tensor(2.0))

        def forward(self, X):
            return X * self.factor

        def right_inverse(self, X):
            return X / self.factor
    return JsonSymmetric, JsonScale


GNN_SYMMETRIC = GNN_SCALE = None


def build(lib, case, seed=0):
    """nn.Sequential (Linear (4, 4), Tanh (), Linear (4, 3)) with @case on the first weight."""
    global GNN_SYMMETRIC, GNN_SCALE
    import importlib
    for sub in ('parametrize', 'parametrizations', 'prune'):
        importlib.import_module(lib.__name__ + '.nn.utils.' + sub)
    nnu = lib.nn.utils
    m = lib.nn.Sequential(lib.nn.Linear(4, 4), lib.nn.Tanh(), lib.nn.Linear(4, 3))
    first = m[0]
    if case == 'python':
        if lib is torch:
            sym, scale = computed_classes(torch)
        else:
            if GNN_SYMMETRIC is None:
                GNN_SYMMETRIC, GNN_SCALE = computed_classes(lib)
            sym, scale = GNN_SYMMETRIC, GNN_SCALE
        nnu.parametrize.register_parametrization(first, 'weight', sym())
        nnu.parametrize.register_parametrization(first, 'weight', scale())
    elif case == 'orthogonal':
        nnu.parametrizations.orthogonal(first)
    elif case == 'spectral_norm':
        nnu.parametrizations.spectral_norm(first)
    elif case == 'prune':
        nnu.prune.l1_unstructured(first, 'weight', amount=5)
        nnu.prune.random_structured(first, 'weight', amount=1, dim=0)
    elif case == 'hook_weight_norm':
        nnu.weight_norm(first)
    elif case == 'hook_spectral_norm':
        nnu.spectral_norm(first)
    return m


class ComputedTensorsJsonTest(ParityTest):
    """Parametrized, pruned and hook-normed modules: to_json / new_from_json rebuild the same
    computed attribute, torch's state-dict keys and the same outputs bit for bit."""
    CASES = ('python', 'orthogonal', 'spectral_norm', 'prune', 'hook_weight_norm', 'hook_spectral_norm')

    def round_trip(self, case):
        import gnn
        gm, tm = build(gnn, case), build(torch, case)
        self.assertEqual(list(gm.state_dict().get_keys()), list(tm.state_dict().keys()), case)
        text = gm.to_json(False)
        back = Gnn.Module.new_from_json(text, -1)
        self.assertEqual(list(back.state_dict().get_keys()), list(tm.state_dict().keys()), case)
        back.load_state_dict(gm.state_dict(), True, False)
        x = to_gnn(rand([5, 4]))
        for _ in range(2):
            np.testing.assert_array_equal(to_np(back(x)), to_np(gm(x)), err_msg=case)
        self.assertEqual(back.to_json(False), text, case)
        return gm, back

    def test_round_trips(self):
        for case in self.CASES:
            self.round_trip(case)

    def test_python_parametrization(self):
        import gnn
        import gnn.nn.utils.parametrize as GP
        gm, back = self.round_trip('python')
        plist = back[0].parametrizations.weight
        self.assertIs(type(plist[0]), GNN_SYMMETRIC)
        self.assertIs(type(plist[1]), GNN_SCALE)
        self.assertTrue(GP.is_parametrized(back[0], 'weight'))
        # the computed attribute is the same; JsonScale's right_inverse is installed again, so a
        # chain of JsonScale alone takes an assignment through it
        np.testing.assert_array_equal(to_np(back[0].weight), to_np(gm[0].weight))
        self.assertFalse(Gnn.parametrization_has_right_inverse(plist[0]))
        self.assertTrue(Gnn.parametrization_has_right_inverse(plist[1]))
        lin = gnn.nn.Linear(4, 4)
        GP.register_parametrization(lin, 'weight', GNN_SCALE())
        again = Gnn.Module.new_from_json(lin.to_json(False), -1)
        again.weight = gnn.tensor(np.eye(4, dtype=np.float32))
        np.testing.assert_array_equal(to_np(again.parametrizations.weight.original), np.eye(4) / 2)
        np.testing.assert_array_equal(to_np(again.weight), np.eye(4))

    def test_hostile(self):
        import gnn
        tree = json.loads(build(gnn, 'python').to_json(False))
        first = tree['children'][0]['module']
        plist = [c for c in first['children'] if c['name'] == 'parametrizations'][0]['module']['children'][0]['module']
        bad = json.loads(json.dumps(tree))
        bad_first = bad['children'][0]['module']
        bad_plist = [c for c in bad_first['children'] if c['name'] == 'parametrizations'][0]['module']['children'][0]['module']
        bad_plist['children'][0]['module']['type'] = 'NoSuchJsonParametrization'
        with self.assertRaises(GLib.Error) as cm:
            Gnn.Module.new_from_json(json.dumps(bad), -1)
        self.assertIn("NoSuchJsonParametrization", cm.exception.message)
        self.assertIn("'0.parametrizations.weight.0'", cm.exception.message)
        bad = json.loads(json.dumps(tree))
        bad_first = bad['children'][0]['module']
        bad_plist = [c for c in bad_first['children'] if c['name'] == 'parametrizations'][0]['module']['children'][0]['module']
        bad_plist['parameters'] = []
        with self.assertRaises(GLib.Error) as cm:
            Gnn.Module.new_from_json(json.dumps(bad), -1)
        self.assertTrue(cm.exception.matches(Gnn.Error.quark(), Gnn.Error.FILE_FORMAT))
        self.assertIn("parametrizations.weight.original' is missing", cm.exception.message)
        self.assertEqual(plist['parameters'][0]['name'], 'original')
        pruned = json.loads(build(gnn, 'prune').to_json(False))
        pruned['children'][0]['module']['buffers'][0]['shape'] = [2, 8]
        with self.assertRaises(GLib.Error) as cm:
            Gnn.Module.new_from_json(json.dumps(pruned), -1)
        self.assertIn("buffer 'weight_mask'", cm.exception.message)

    def test_checkpoint(self):
        import gnn
        for case in ('prune', 'spectral_norm', 'hook_spectral_norm'):
            gm = build(gnn, case)
            path = os.path.join(tempfile.mkdtemp(), 'ckpt.safetensors')
            ckpt = Gnn.Checkpoint.new()
            ckpt.set_model(gm)
            ckpt.save(path)
            back = Gnn.Checkpoint.load_model(path)
            self.assertEqual(list(back.state_dict().get_keys()), list(gm.state_dict().get_keys()))
            x = to_gnn(rand([5, 4]))
            for _ in range(2):
                np.testing.assert_array_equal(to_np(back(x)), to_np(gm(x)), err_msg=case)
            os.unlink(path)
            os.rmdir(os.path.dirname(path))


if __name__ == '__main__':
    main()
