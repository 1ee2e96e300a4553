#!/usr/bin/python3
"""torch.utils.data and torchvision's names on gnn against torch 1.13 and torchvision 0.14:
map-style datasets of any samples and default_collate batch by batch, collate_fn, samplers,
the loader's argument checks, Subset, ConcatDataset, random_split, the transforms on the same
images, and FashionMNIST item by item and batch by batch from the same files."""
import gzip
import os
import shutil
import tempfile
import unittest

import numpy as np
import torch
import torch.utils.data as tud

from gnntest import Gnn, GLib, main, to_gnn, to_np

import gnn
import gnn.utils.data as data
from gnn.vision import datasets, transforms

try:
    import torchvision
    import torchvision.transforms as TT
except ImportError:   # python3-torchvision
    torchvision = None

FASHION_MNIST_DIR = '/usr/share/datasets/fashion-mnist'


def assert_same(test, g, t):
    """a gnn batch (tensor, list, dict) equals torch's: values, dtype and shape"""
    if isinstance(t, torch.Tensor):
        test.assertIsInstance(g, Gnn.Tensor)
        test.assertEqual(list(g.shape), list(t.shape))
        test.assertEqual(str(to_np(g).dtype), str(t.numpy().dtype))
        np.testing.assert_array_equal(to_np(g), t.numpy())
    elif isinstance(t, dict):
        test.assertEqual(sorted(g), sorted(t))
        for k in t:
            assert_same(test, g[k], t[k])
    elif isinstance(t, (list, tuple)):
        test.assertEqual(len(g), len(t))
        for a, b in zip(g, t):
            assert_same(test, a, b)
    else:
        test.assertEqual(g, t)


class Mixed(data.Dataset):
    """sample i: (a float32 vector, an int, a float, a string)"""

    def __init__(self, lib, n=10):
        self.lib, self.n = lib, n

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        x = np.array([i, i * 0.5, -i], dtype=np.float32)
        x = to_gnn(x) if self.lib == 'gnn' else torch.from_numpy(x)
        return x, i * 3, i / 4, 'item%d' % i


class Dicts(data.Dataset):
    def __len__(self):
        return 5

    def __getitem__(self, i):
        return {'x': [i, i + 1], 'y': float(i)}


class TorchMixed(tud.Dataset):
    def __init__(self, n=10):
        self.inner = Mixed('torch', n)

    def __len__(self):
        return len(self.inner)

    def __getitem__(self, i):
        return self.inner[i]


class TorchDicts(tud.Dataset):
    def __len__(self):
        return 5

    def __getitem__(self, i):
        return Dicts()[i]


class LoaderTest(unittest.TestCase):
    def test_names_are_torchs(self):
        self.assertIs(data.DataLoader, Gnn.DataLoader)
        self.assertIs(data.Dataset, Gnn.MapDataset)
        self.assertIs(gnn.utils.data.random_split, Gnn.random_split)
        self.assertIs(transforms.ToTensor, Gnn.ToTensor)
        self.assertIs(datasets.FashionMNIST, Gnn.FashionMNIST)
        self.assertIs(data.IterableDataset, Gnn.IterableDataset)

    def test_default_collate_matches_torch(self):
        for batch_size, drop_last in ((4, False), (4, True), (1, False), (10, False)):
            g = data.DataLoader(Mixed('gnn'), batch_size=batch_size, drop_last=drop_last)
            t = tud.DataLoader(TorchMixed(), batch_size=batch_size, drop_last=drop_last)
            self.assertEqual(len(g), len(t))
            gb, tb = list(g), list(t)
            self.assertEqual(len(gb), len(tb))
            for a, b in zip(gb, tb):
                self.assertIsInstance(a, list)   # a tuple sample gives a list, as torch 1.13
                assert_same(self, a, b)
        assert_same(self, list(data.DataLoader(Dicts(), batch_size=2)),
                    list(tud.DataLoader(TorchDicts(), batch_size=2)))
        assert_same(self, data.default_collate([(1, 2.5, True), (3, 4.0, False)]),
                    tud.default_collate([(1, 2.5, True), (3, 4.0, False)]))

    def test_loader_attributes_and_collate_fn(self):
        ds = Mixed('gnn', 7)
        seen = []

        def collate(samples):
            seen.append(len(samples))
            return [s[1] for s in samples]
        loader = data.DataLoader(ds, batch_size=3, collate_fn=collate, num_workers=2,
                                 pin_memory=True, persistent_workers=True, prefetch_factor=4)
        self.assertIs(loader.dataset, ds)
        self.assertEqual(loader.batch_size, 3)
        self.assertEqual(len(loader), 3)
        self.assertEqual(list(loader), [[0, 3, 6], [9, 12, 15], [18]])
        self.assertEqual(seen, [3, 3, 1])
        self.assertEqual(loader[1], [9, 12, 15])
        # batch_size=None gives the samples themselves
        self.assertEqual([b[1] for b in data.DataLoader(ds, batch_size=None)], list(range(0, 21, 3)))

    def test_samplers_match_torch(self):
        ds = Mixed('gnn', 9)
        sampler = data.BatchSampler(data.SequentialSampler(ds), 4, False)
        tsampler = tud.BatchSampler(tud.SequentialSampler(range(9)), 4, False)
        self.assertEqual(list(sampler), list(tsampler))
        self.assertEqual(len(data.BatchSampler(range(9), 4, True)), len(tud.BatchSampler(range(9), 4, True)))
        g = data.DataLoader(ds, batch_sampler=[[8, 0], [3, 3, 1]])
        t = tud.DataLoader(TorchMixed(9), batch_sampler=[[8, 0], [3, 3, 1]])
        assert_same(self, list(g), list(t))
        g = data.DataLoader(ds, batch_size=4, sampler=[5, 4, 3, 2, 1])
        t = tud.DataLoader(TorchMixed(9), batch_size=4, sampler=[5, 4, 3, 2, 1])
        self.assertEqual(len(g), len(t))
        assert_same(self, list(g), list(t))
        Gnn.manual_seed(3)
        a = list(data.RandomSampler(range(20)))
        b = list(data.RandomSampler(range(20)))
        Gnn.manual_seed(3)
        self.assertEqual(list(data.RandomSampler(range(20))), a)
        self.assertEqual(sorted(a), list(range(20)))
        self.assertNotEqual(a, b)
        self.assertEqual(len(list(data.RandomSampler(range(5), replacement=True, num_samples=12))), 12)

    def test_default_samplers_are_torchs(self):
        # loader.sampler and loader.batch_sampler are torch's defaults when none is given, for
        # loaders batched in C and in Python alike; code like len(loader.sampler) then works
        x = np.arange(10, dtype=np.float32).reshape(10, 1)
        cases = ({}, {'shuffle': True}, {'batch_size': 3, 'drop_last': True}, {'batch_size': None},
                 {'sampler': [3, 1, 2]}, {'batch_sampler': [[0, 1], [2]]})
        for kwargs in cases:
            for gds, tds in ((data.TensorDataset(to_gnn(x)), tud.TensorDataset(torch.from_numpy(x))),
                             (Mixed('gnn', 10), TorchMixed(10))):
                with self.subTest(kwargs=kwargs, dataset=type(gds).__name__):
                    g = data.DataLoader(gds, **kwargs)
                    t = tud.DataLoader(tds, **kwargs)
                    self.assertEqual(type(g.sampler).__name__, type(t.sampler).__name__)
                    self.assertEqual(type(g.batch_sampler).__name__, type(t.batch_sampler).__name__)
                    self.assertEqual(len(g.sampler), len(t.sampler))
                    self.assertEqual(sorted(g.sampler), sorted(t.sampler))
                    if t.batch_sampler is not None:
                        self.assertEqual(len(g.batch_sampler), len(t.batch_sampler))
                        self.assertIs(g.batch_sampler.sampler if kwargs.get('batch_sampler') is None
                                      else g.sampler, g.sampler)
                    if not kwargs.get('shuffle'):
                        self.assertEqual(list(g.batch_sampler or []), list(t.batch_sampler or []))
                    self.assertEqual(len(g), len(t))
                    self.assertIs(g.sampler, g.sampler)   # made once, as torch's
                    for name in ('sampler', 'batch_sampler', 'dataset', 'batch_size', 'drop_last'):
                        with self.assertRaises(ValueError) as want:
                            setattr(t, name, None)
                        with self.assertRaises(ValueError) as got:
                            setattr(g, name, None)
                        self.assertEqual(str(got.exception), str(want.exception))
        gen, tgen = gnn.Generator(), torch.Generator()
        self.assertIs(data.DataLoader(data.TensorDataset(to_gnn(x)), shuffle=True, generator=gen).sampler.generator, gen)
        self.assertIs(tud.DataLoader(tud.TensorDataset(torch.from_numpy(x)), shuffle=True, generator=tgen).sampler.generator, tgen)

    def test_argument_errors_match_torch(self):
        ds = Mixed('gnn')
        for kwargs in ({'sampler': [0, 1], 'shuffle': True}, {'batch_sampler': [[0]], 'batch_size': 2},
                       {'batch_sampler': [[0]], 'drop_last': True}, {'num_workers': -1},
                       {'prefetch_factor': 4}, {'persistent_workers': True}, {'timeout': -1}):
            with self.subTest(kwargs=kwargs):
                with self.assertRaises(ValueError) as want:
                    tud.DataLoader(TorchMixed(), **kwargs)
                with self.assertRaises(ValueError) as got:
                    data.DataLoader(ds, **kwargs)
                self.assertEqual(str(got.exception), str(want.exception))

    def test_shuffle_epochs_differ_and_replay(self):
        # gnn's orders are not torch's (Philox, not torch's randperm): check what holds for both
        ds = data.TensorDataset(to_gnn(np.arange(40, dtype=np.int64)))
        Gnn.manual_seed(11)
        loader = data.DataLoader(ds, batch_size=8, shuffle=True)
        first = np.concatenate([to_np(b[0]) for b in loader])
        second = np.concatenate([to_np(b[0]) for b in loader])
        self.assertEqual(sorted(first.tolist()), list(range(40)))
        self.assertEqual(sorted(second.tolist()), list(range(40)))
        self.assertFalse(np.array_equal(first, second))
        Gnn.manual_seed(11)
        again = data.DataLoader(ds, batch_size=8, shuffle=True)
        np.testing.assert_array_equal(np.concatenate([to_np(b[0]) for b in again]), first)
        np.testing.assert_array_equal(np.concatenate([to_np(b[0]) for b in again]), second)
        # a Python dataset shuffles the same way
        py = data.DataLoader(Mixed('gnn', 40), batch_size=8, shuffle=True,
                             generator=Gnn.Generator.new(5))
        ints = np.concatenate([to_np(b[1]) for b in py]) // 3
        self.assertEqual(sorted(ints.tolist()), list(range(40)))
        self.assertFalse(np.array_equal(ints, np.arange(40)))


class DatasetTest(unittest.TestCase):
    def test_tensor_dataset(self):
        x = np.arange(12, dtype=np.float32).reshape(6, 2)
        y = np.arange(6, dtype=np.int64)
        g = data.TensorDataset(to_gnn(x), to_gnn(y))
        t = tud.TensorDataset(torch.from_numpy(x), torch.from_numpy(y))
        self.assertEqual(len(g), len(t))
        self.assertEqual(len(g.tensors), 2)
        for i in (0, 5, -1):
            assert_same(self, list(g[i]), list(t[i]))
        assert_same(self, [list(b) for b in data.DataLoader(g, batch_size=4)],
                    list(tud.DataLoader(t, batch_size=4)))

    def test_subset_and_concat_match_torch(self):
        g = data.ConcatDataset([Mixed('gnn', 3), Mixed('gnn', 4)])
        t = tud.ConcatDataset([TorchMixed(3), TorchMixed(4)])
        self.assertEqual(len(g), len(t))
        self.assertEqual(g.cumulative_sizes, t.cumulative_sizes)
        for i in range(-7, 7):
            assert_same(self, list(g[i]), list(t[i]))
        with self.assertRaises(ValueError):
            g[-8]
        gs = data.Subset(g, [6, 0, 3])
        ts = tud.Subset(t, [6, 0, 3])
        self.assertEqual(len(gs), len(ts))
        assert_same(self, list(data.DataLoader(gs, batch_size=2)), list(tud.DataLoader(ts, batch_size=2)))
        both = Mixed('gnn', 2) + Mixed('gnn', 2)
        self.assertEqual(len(both), 4)
        self.assertIsNone(both._gnn_dataset)

    def test_subset_and_concat_of_tensor_datasets_batch_in_c(self):
        x = np.arange(20, dtype=np.float32).reshape(10, 2)
        y = np.arange(10, dtype=np.int64)
        g = data.TensorDataset(to_gnn(x), to_gnn(y))
        t = tud.TensorDataset(torch.from_numpy(x), torch.from_numpy(y))
        gs = data.ConcatDataset([data.Subset(g, [7, 1, 1, 4]), g])
        ts = tud.ConcatDataset([tud.Subset(t, [7, 1, 1, 4]), t])
        # the C classes (Python's Gnn.Subset and Gnn.ConcatDataset are torch's, over them)
        self.assertEqual(gs._gnn_dataset.__gtype__.name, 'GnnConcatDataset')
        self.assertEqual(gs.datasets[0]._gnn_dataset.__gtype__.name, 'GnnSubset')
        for i in (0, 3, 4, 13):
            assert_same(self, list(gs[i]), list(ts[i]))
        assert_same(self, [list(b) for b in data.DataLoader(gs, batch_size=5)],
                    list(tud.DataLoader(ts, batch_size=5)))
        assert_same(self, [list(b) for b in data.DataLoader(gs.datasets[0], batch_size=3)],
                    list(tud.DataLoader(ts.datasets[0], batch_size=3)))

    def test_random_split(self):
        ds = Mixed('gnn', 10)
        for lengths in ([3, 7], [0.3, 0.3, 0.4], [0.25, 0.25, 0.5], [1 / 3] * 3):
            with self.subTest(lengths=lengths):
                parts = data.random_split(ds, lengths, generator=Gnn.Generator.new(1))
                tparts = tud.random_split(range(10), lengths, generator=torch.Generator().manual_seed(1))
                self.assertEqual([len(p) for p in parts], [len(p) for p in tparts])
                self.assertEqual(sorted(i for p in parts for i in p.indices), list(range(10)))
        a = data.random_split(ds, [5, 5], generator=Gnn.Generator.new(9))
        b = data.random_split(ds, [5, 5], generator=Gnn.Generator.new(9))
        self.assertEqual(a[0].indices, b[0].indices)
        self.assertEqual(a[0][1][1], 3 * a[0].indices[1])
        with self.assertRaises(ValueError) as cm:
            data.random_split(ds, [3, 3])
        self.assertIn('Sum of input lengths', str(cm.exception))


@unittest.skipIf(torchvision is None, 'torchvision is not installed (python3-torchvision)')
class TransformsTest(unittest.TestCase):
    def setUp(self):
        self.img = np.random.default_rng(0).integers(0, 256, size=(5, 6, 3)).astype(np.uint8)

    def test_to_tensor_normalize_compose(self):
        mean, std = (0.5, 0.4, 0.3), (0.2, 0.25, 0.3)
        g = transforms.Compose([transforms.ToTensor(), transforms.Normalize(mean, std)])
        t = TT.Compose([TT.ToTensor(), TT.Normalize(mean, std)])
        np.testing.assert_allclose(to_np(g(self.img)), t(self.img).numpy(), rtol=1e-6, atol=1e-6)
        gray = self.img[:, :, 0]
        assert_same(self, transforms.ToTensor()(gray), TT.ToTensor()(gray))
        assert_same(self, transforms.ToTensor()(to_gnn(gray)), TT.ToTensor()(gray))
        self.assertEqual(repr(transforms.ToTensor()), repr(TT.ToTensor()))
        self.assertEqual(len(g.transforms), 2)

    def test_random_crop_padding_modes(self):
        x = torch.from_numpy(np.ascontiguousarray(self.img.transpose(2, 0, 1)))
        for mode in ('constant', 'edge', 'reflect', 'symmetric'):
            for padding in (2, (1, 3), (1, 2, 3, 4)):
                with self.subTest(mode=mode, padding=padding):
                    t = TT.Pad(padding, fill=7, padding_mode=mode)(x)
                    size = tuple(t.shape[1:])   # the whole padded image: no random draw
                    g = transforms.RandomCrop(size, padding=padding, fill=7, padding_mode=mode)(to_gnn(x.numpy()))
                    assert_same(self, g, t)
        t = TT.RandomCrop(8, pad_if_needed=True)(x)
        g = transforms.RandomCrop(8, pad_if_needed=True)(to_gnn(x.numpy()))
        self.assertEqual(list(g.shape), list(t.shape))
        with self.assertRaises(ValueError) as want:
            TT.RandomCrop(9)(x)
        # a ValueError in torch; gnn's INVALID_ARGUMENT GError with the same words
        with self.assertRaises((ValueError, GLib.Error)) as got:
            transforms.RandomCrop(9)(to_gnn(x.numpy()))
        self.assertIn(str(want.exception), str(got.exception))

    def test_flip_and_lambda(self):
        x = torch.from_numpy(np.ascontiguousarray(self.img.transpose(2, 0, 1)))
        assert_same(self, transforms.RandomHorizontalFlip(p=1.0)(to_gnn(x.numpy())),
                    TT.RandomHorizontalFlip(p=1.0)(x))
        gx = to_gnn(x.numpy())
        self.assertIs(transforms.RandomHorizontalFlip(p=0.0)(gx), gx)
        self.assertEqual(transforms.Lambda(lambda v: v + 1)(2), 3)
        g = transforms.Compose([transforms.ToTensor(), lambda v: v * 2])
        np.testing.assert_allclose(to_np(g(self.img)), TT.Compose([TT.ToTensor(), lambda v: v * 2])(self.img).numpy(),
                                   rtol=1e-6)
        # a Lambda inside a dataset's transform runs from C
        ds = data.TensorDataset(to_gnn(np.zeros((3, 2, 2), dtype=np.uint8)))
        ds.props.transform = transforms.Compose([transforms.ToTensor(), transforms.Lambda(lambda v: v + 1)])
        batch = data.DataLoader(ds, batch_size=3)[0][0]
        np.testing.assert_array_equal(to_np(batch), np.ones((3, 1, 2, 2), dtype=np.float32))

    def test_random_transforms_replay(self):
        x = to_gnn(np.arange(64, dtype=np.float32).reshape(1, 8, 8))
        crop = transforms.RandomCrop(4, padding=2)
        Gnn.manual_seed(4)
        first = [to_np(crop(x)) for _ in range(6)]
        Gnn.manual_seed(4)
        again = [to_np(crop(x)) for _ in range(6)]
        for a, b in zip(first, again):
            np.testing.assert_array_equal(a, b)
        self.assertGreater(len({a.tobytes() for a in first}), 1)


@unittest.skipIf(torchvision is None or not os.path.exists(FASHION_MNIST_DIR + '/t10k-images-idx3-ubyte.gz'),
                 'torchvision or Fashion-MNIST (dataset-fashion-mnist) is not installed')
class FashionMNISTTest(unittest.TestCase):
    LIMIT = 300

    @classmethod
    def setUpClass(cls):
        # torchvision reads the unpacked files of root/FashionMNIST/raw (it wants all four);
        # gnn the same folder
        cls.root = tempfile.mkdtemp(prefix='gnn-fmnist-')
        raw = os.path.join(cls.root, 'FashionMNIST', 'raw')
        os.makedirs(raw)
        for name in ('t10k-images-idx3-ubyte', 't10k-labels-idx1-ubyte', 'train-images-idx3-ubyte',
                     'train-labels-idx1-ubyte'):
            with gzip.open(os.path.join(FASHION_MNIST_DIR, name + '.gz')) as src, \
                    open(os.path.join(raw, name), 'wb') as dst:
                shutil.copyfileobj(src, dst)
        os.environ['GNN_FASHION_MNIST_LIMIT'] = str(cls.LIMIT)

    @classmethod
    def tearDownClass(cls):
        del os.environ['GNN_FASHION_MNIST_LIMIT']
        shutil.rmtree(cls.root)

    def test_items_and_batches_match_torchvision(self):
        norm = ((0.2860,), (0.3530,))
        g = datasets.FashionMNIST(self.root, train=False, download=False,
                                  transform=transforms.Compose([transforms.ToTensor(), transforms.Normalize(*norm)]))
        t = torchvision.datasets.FashionMNIST(self.root, train=False, download=False,
                                              transform=TT.Compose([TT.ToTensor(), TT.Normalize(*norm)]))
        self.assertEqual(len(g), self.LIMIT)
        self.assertEqual(g.classes, t.classes)
        np.testing.assert_array_equal(to_np(g.data), t.data[:self.LIMIT].numpy())
        for i in (0, 1, 17, self.LIMIT - 1):
            gi, ti = g[i], t[i]
            self.assertEqual(gi[1], ti[1])
            self.assertIsInstance(gi[1], int)
            np.testing.assert_allclose(to_np(gi[0]), ti[0].numpy(), rtol=1e-5, atol=1e-6)
        gl = data.DataLoader(g, batch_size=64)
        tl = tud.DataLoader(tud.Subset(t, range(self.LIMIT)), batch_size=64)
        self.assertIsNotNone(g._gnn_dataset)   # batched in C
        self.assertEqual(len(gl), len(tl))
        for (gx, gy), (tx, ty) in zip(gl, tl):
            self.assertEqual(list(gx.shape), list(tx.shape))
            np.testing.assert_allclose(to_np(gx), tx.numpy(), rtol=1e-5, atol=1e-6)
            assert_same(self, gy, ty)

    def test_raw_items_and_python_target_transform(self):
        g = datasets.FashionMNIST(self.root, train=False, target_transform=lambda y: y + 100)
        img, y = g[3]
        self.assertEqual(list(img.shape), [28, 28])
        self.assertEqual(to_np(img).dtype, np.uint8)
        self.assertEqual(y, int(to_np(g.targets)[3]) + 100)
        self.assertIsNone(g._gnn_dataset)
        batch = data.DataLoader(g, batch_size=5)[0]
        self.assertEqual(list(batch[0].shape), [5, 28, 28])
        np.testing.assert_array_equal(to_np(batch[1]), to_np(g.targets)[:5] + 100)

    def test_download_never_reaches_the_network(self):
        g = datasets.FashionMNIST(self.root, train=True, download=True)
        self.assertEqual(len(g), self.LIMIT)
        # a root without the files falls back to the system folder
        empty = tempfile.mkdtemp(prefix='gnn-fmnist-empty-')
        try:
            g = datasets.FashionMNIST(empty, train=False, download=True)
            np.testing.assert_array_equal(to_np(g.data), to_np(datasets.FashionMNIST(self.root, train=False).data))
        finally:
            os.rmdir(empty)


class RandomPermutationTest(unittest.TestCase):
    """torch.randperm and the samplers drawn from it against torch 1.13's rules (the orders
    come from gnn's generator, so they are checked as permutations and distributions)."""

    def test_randperm(self):
        gnn.manual_seed(3)
        a = gnn.randperm(20)
        self.assertEqual(a.dtype, gnn.int64)
        self.assertEqual(sorted(a.tolist()), list(range(20)))
        self.assertNotEqual(a.tolist(), list(range(20)))
        gnn.manual_seed(3)
        self.assertEqual(gnn.randperm(20).tolist(), a.tolist())
        self.assertNotEqual(gnn.randperm(20).tolist(), a.tolist())
        for T in (gnn, torch):
            self.assertEqual(T.randperm(0).tolist(), [])
            self.assertEqual(T.randperm(5, dtype=T.float64).dtype, T.float64)
            self.assertEqual(sorted(T.randperm(5, dtype=T.float64).tolist()), [0.0, 1.0, 2.0, 3.0, 4.0])
            self.assertTrue(T.randperm(3, dtype=T.float64, requires_grad=True).requires_grad)
            g = T.Generator()
            g.manual_seed(5)
            first = T.randperm(8, generator=g).tolist()
            g.manual_seed(5)
            self.assertEqual(T.randperm(8, generator=g).tolist(), first)
            for bad in (lambda: T.randperm(-1), lambda: T.randperm(3, dtype=T.bool),
                        lambda: T.randperm(300, dtype=T.uint8)):
                with self.assertRaises(RuntimeError):
                    bad()
            with self.assertRaises(TypeError):
                T.randperm(2.0)

    def test_subset_random_sampler(self):
        for T in (gnn, torch):
            s = T.utils.data.SubsetRandomSampler([10, 11, 12, 13, 14])
            self.assertEqual(len(s), 5)
            self.assertEqual(sorted(s), [10, 11, 12, 13, 14])
            orders = {tuple(s) for _ in range(20)}
            self.assertGreater(len(orders), 1)

    def test_weighted_random_sampler(self):
        for T in (gnn, torch):
            T.manual_seed(0)
            s = T.utils.data.WeightedRandomSampler([0.25, 0.0, 0.75], 4000)
            self.assertEqual(len(s), 4000)
            draws = list(s)
            self.assertEqual(len(draws), 4000)
            self.assertNotIn(1, draws)
            # share of index 2: 0.75 within six standard deviations (sd 0.0068)
            self.assertLess(abs(draws.count(2) / 4000 - 0.75), 0.041)
            no_repl = list(T.utils.data.WeightedRandomSampler([1.0, 2.0, 3.0, 4.0], 4,
                                                              replacement=False))
            self.assertEqual(sorted(no_repl), [0, 1, 2, 3])
            for bad in (lambda: T.utils.data.WeightedRandomSampler([1.0], 0),
                        lambda: T.utils.data.WeightedRandomSampler([1.0], 2, replacement=1)):
                with self.assertRaises(ValueError):
                    bad()
            with self.assertRaises(RuntimeError):
                list(T.utils.data.WeightedRandomSampler([1.0, 1.0], 3, replacement=False))


if __name__ == '__main__':
    main()
