#!/usr/bin/python3
"""Datasets and the data loader from Python: TensorDataset batches equal torch's
TensorDataset + DataLoader without shuffling, a Dataset written in Python, shuffled epochs
that are permutations and replay, and the Normalize transform against torchvision's formula."""
import numpy as np
import torch
from torch.utils.data import DataLoader as TorchLoader, TensorDataset as TorchTensorDataset

from gnntest import Gnn, GLib, GObject, ParityTest, main, rand, to_gnn, to_np


class Squares(GObject.Object, Gnn.Dataset):
    """sample i: (x = [i, i*i], y = i % 2), written in Python"""
    __gtype_name__ = 'PySquares'

    def do_get_length(self):
        return 5

    def do_get_item(self, index):
        return [to_gnn(np.array([index, index * index], dtype=np.float32)),
                to_gnn(np.array(index % 2, dtype=np.int64))]


class DatasetTest(ParityTest):
    def test_tensor_dataset_matches_torch(self):
        x = rand([10, 3], seed=1)
        y = np.arange(10, dtype=np.int64)
        ds = Gnn.TensorDataset.new([to_gnn(x), to_gnn(y)])
        tl = TorchLoader(TorchTensorDataset(torch.from_numpy(x), torch.from_numpy(y)), batch_size=4)
        gl = Gnn.DataLoader(ds, batch_size=4)
        self.assertEqual(len(gl), len(tl))
        for (gx, gy), (tx, ty) in zip(gl, tl):
            np.testing.assert_array_equal(to_np(gx), tx.numpy())
            np.testing.assert_array_equal(to_np(gy), ty.numpy())
        self.assertEqual(len(Gnn.DataLoader(ds, batch_size=4, drop_last=True)), 2)

    def test_python_dataset(self):
        loader = Gnn.DataLoader(Squares(), batch_size=2)
        batches = list(loader)
        self.assertEqual(len(batches), 3)
        np.testing.assert_array_equal(to_np(batches[1][0]), [[2, 4], [3, 9]])
        np.testing.assert_array_equal(to_np(batches[2][1]), [0])
        with self.assertRaises(IndexError):
            loader[3]

    def test_shuffle_epochs(self):
        ds = Gnn.TensorDataset.new([to_gnn(np.arange(50, dtype=np.int64))])
        loader = Gnn.DataLoader(ds, batch_size=7, shuffle=True, seed=5)
        first = np.concatenate([to_np(b[0]) for b in loader])
        self.assertEqual(sorted(first.tolist()), list(range(50)))
        loader.set_epoch(1)
        second = np.concatenate([to_np(b[0]) for b in loader])
        self.assertEqual(sorted(second.tolist()), list(range(50)))
        self.assertFalse(np.array_equal(first, second))
        loader.props.epoch = 0
        np.testing.assert_array_equal(np.concatenate([to_np(b[0]) for b in loader]), first)

    def test_normalize(self):
        img = np.random.default_rng(0).integers(0, 256, size=(4, 3, 5, 5)).astype(np.uint8)
        mean, std = [0.485, 0.456, 0.406], [0.229, 0.224, 0.225]
        norm = Gnn.Normalize.new(mean, std, 1 / 255.0)
        got = to_np(norm.apply(to_gnn(img)))
        t = torch.from_numpy(img).float() / 255.0
        want = (t - torch.tensor(mean).view(1, 3, 1, 1)) / torch.tensor(std).view(1, 3, 1, 1)
        self.assert_close(got, want.numpy(), 1e-5, 1e-6)
        with self.assertRaises(GLib.Error):
            Gnn.Normalize.new([0.5], [0.0], 1.0)


if __name__ == '__main__':
    main()
