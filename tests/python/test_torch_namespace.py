"""The package gnn gives torch's namespaces (import gnn as torch, from gnn import nn, ...) from the
one table of torch names in the overrides, and names what gnn lacks."""
import importlib
import unittest

import gnntest  # noqa: F401 (requires Gnn 1.0, loads torch)
from gi.repository import Gnn
from gi.overrides._gnn import names
import torch

import gnn


def gnn_module(namespace):
    """The module of the package gnn that mirrors a torch namespace."""
    if namespace.startswith('torchvision'):
        return importlib.import_module('gnn.vision' + namespace[len('torchvision'):])
    return importlib.import_module('gnn' + namespace[len('torch'):])


# torch names newer than the oracle, Debian's torch 1.13 (added in 2.0 to 2.3)
NEWER_THAN_ORACLE = {
    'torch.optim.lr_scheduler.LRScheduler', 'torch.optim.swa_utils.get_ema_multi_avg_fn',
    'torch.optim.swa_utils.get_swa_multi_avg_fn', 'torch.optim.swa_utils.get_ema_avg_fn',
    'torch.optim.swa_utils.get_swa_avg_fn',
    'torch.nn.utils.parametrizations.weight_norm',
    'torch.amp.GradScaler',
}


def torch_object(spelling):
    module_name, name = names.namespace_of(spelling)
    if spelling in NEWER_THAN_ORACLE:
        return getattr(importlib.import_module(module_name), name, 'newer than torch 1.13')
    if module_name == 'torch.Tensor':
        return getattr(torch.Tensor, name)
    return getattr(importlib.import_module(module_name), name)


class TestNamespaces(unittest.TestCase):
    def test_imports_as_torch_writes_them(self):
        from gnn import nn
        from gnn.nn import functional as F
        from gnn.utils.data import DataLoader
        from gnn.optim.lr_scheduler import StepLR
        from gnn.optim.swa_utils import AveragedModel
        self.assertIs(nn.Linear, Gnn.Linear)
        self.assertIs(F.cross_entropy, Gnn.functional_cross_entropy)
        self.assertIs(DataLoader, Gnn.DataLoader)
        self.assertIs(StepLR, Gnn.StepLR)
        self.assertIs(AveragedModel, Gnn.AveragedModel)
        self.assertIs(gnn.nn, nn)
        self.assertIs(gnn.optim.SGD, Gnn.SGD)

    def test_every_row_is_where_torch_has_it(self):
        # each spelling names a real torch (1.13) object, and gnn's module of that namespace has
        # the row's target under the same name, or raises an AttributeError that gives the reason
        for spelling, target in names.ROWS:
            namespace, name = names.namespace_of(spelling)
            with self.subTest(spelling=spelling):
                self.assertIsNotNone(torch_object(spelling))
                if namespace == 'torch.Tensor':
                    if not isinstance(target, names.Missing):
                        self.assertTrue(hasattr(Gnn.Tensor, name))
                    continue
                module = gnn_module(namespace)
                if isinstance(target, names.Missing):
                    with self.assertRaises(AttributeError) as cm:
                        getattr(module, name)
                    self.assertIn(target.why, str(cm.exception))
                    self.assertIn(spelling, str(cm.exception))
                else:
                    got, want = getattr(module, name), names.resolve(target, lambda n: getattr(Gnn, n))
                    if isinstance(want, float) and want != want:
                        self.assertIs(got, want)   # torch.nan: NaN equals nothing, itself included
                    else:
                        self.assertEqual(got, want)
                    self.assertIn(name, module.__all__)

    def test_unknown_and_missing_names_say_so(self):
        from gnn import nn
        with self.assertRaises(AttributeError) as cm:
            gnn.complex64
        self.assertIn('gnn lacks torch.complex64', str(cm.exception))
        with self.assertRaises(AttributeError) as cm:
            nn.functional.no_such_function
        self.assertIn('torch.nn.functional.no_such_function is not a name gnn knows', str(cm.exception))
        with self.assertRaises(AttributeError) as cm:
            gnn.no_such_thing
        self.assertIn("module 'gnn' has no attribute 'no_such_thing'", str(cm.exception))
        with self.assertRaises(ImportError):
            from gnn.nn import NoSuchLayer  # noqa: F401

    def test_spellings_are_unique(self):
        spellings = [s for s, _ in names.ROWS]
        self.assertEqual(len(spellings), len(set(spellings)))

    def test_a_model_from_the_namespace_trains(self):
        from gnn import nn
        gnn.manual_seed(0)
        model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 3))
        optimizer = gnn.optim.SGD(model.parameters(), lr=0.1)
        loss_fn = nn.CrossEntropyLoss()
        x = gnn.tensor([[0.5, -1.0, 2.0, 0.0]] * 6)
        y = gnn.tensor([0, 1, 2, 0, 1, 2])
        first = None
        for _ in range(5):
            loss = loss_fn(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            first = loss.item() if first is None else first
        self.assertLess(loss.item(), first)

    def test_override_classes_keep_their_module(self):
        self.assertEqual(Gnn.Tensor.__module__, 'gi.overrides.Gnn')
        self.assertEqual(Gnn.Linear.__module__, 'gi.overrides.Gnn')


if __name__ == '__main__':
    unittest.main()
