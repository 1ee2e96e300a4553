#!/usr/bin/python3
"""DataLoader(num_workers=) from Python: the C worker threads give torch's num_workers=0
batches in torch's order, the same batches as num_workers=0 with random transforms and
shuffle, run a Gnn.Dataset written in Python without deadlock (the wait for a batch releases
the GIL), raise a worker's error at its batch, end early on break, and time out as torch's."""
import faulthandler
import threading
import time
import unittest

import numpy as np
import torch
import torch.utils.data as tud

from gnntest import Gnn, GLib, GObject, main, to_gnn, to_np

import gnn.utils.data as data
from gnn.vision import transforms

# a deadlock fails the test (with the threads' stacks) instead of hanging it
faulthandler.dump_traceback_later(240, exit=True)


class Slow(GObject.Object, Gnn.Dataset):
    """sample i: (x = [i, -i] float32, y = i int64), written in Python; sleeps `delay` per
    sample, records the threads it runs on, fails at sample `fail_at`"""
    __gtype_name__ = 'PyDataWorkersSlow'

    def __init__(self, n=23, delay=0.0, fail_at=None):
        super().__init__()
        self.n, self.delay, self.fail_at = n, delay, fail_at
        self.threads = set()
        self.lock = threading.Lock()

    def do_get_length(self):
        return self.n

    def do_get_item(self, index):
        with self.lock:
            self.threads.add(threading.get_ident())
        if self.delay:
            time.sleep(self.delay)
        if index == self.fail_at:
            raise GLib.Error('sample %d is broken' % index)
        return [to_gnn(np.array([index, -index], dtype=np.float32)),
                to_gnn(np.array(index, dtype=np.int64))]


def batches(loader):
    return [tuple(to_np(t) for t in b) for b in loader]


def assert_batches_equal(test, got, want):
    test.assertEqual(len(got), len(want))
    for g, w in zip(got, want):
        test.assertEqual(len(g), len(w))
        for a, b in zip(g, w):
            test.assertEqual(a.dtype, b.dtype)
            np.testing.assert_array_equal(a, b)


class WorkersTest(unittest.TestCase):
    def test_order_matches_torch(self):
        x = np.arange(37 * 3, dtype=np.float32).reshape(37, 3)
        y = np.arange(37, dtype=np.int64) % 5
        want = [tuple(t.numpy() for t in b)
                for b in tud.DataLoader(tud.TensorDataset(torch.from_numpy(x), torch.from_numpy(y)),
                                        batch_size=5, num_workers=0)]
        ds = data.TensorDataset(to_gnn(x), to_gnn(y))
        for workers, prefetch in ((0, 2), (1, 2), (2, 1), (3, 4)):
            with self.subTest(num_workers=workers, prefetch_factor=prefetch):
                kwargs = {'prefetch_factor': prefetch} if workers else {}
                loader = data.DataLoader(ds, batch_size=5, num_workers=workers, **kwargs)
                self.assertEqual(loader.get_num_workers(), workers)
                self.assertEqual(loader.get_prefetch_factor(), prefetch)
                assert_batches_equal(self, batches(loader), want)
        # drop_last, as torch's
        want = [tuple(t.numpy() for t in b)
                for b in tud.DataLoader(tud.TensorDataset(torch.from_numpy(x), torch.from_numpy(y)),
                                        batch_size=5, drop_last=True)]
        assert_batches_equal(self, batches(data.DataLoader(ds, batch_size=5, drop_last=True,
                                                           num_workers=2)), want)

    def test_random_transforms_and_shuffle_same_as_none(self):
        images = to_gnn(np.arange(40 * 36, dtype=np.float32).reshape(40, 1, 6, 6))
        labels = to_gnn(np.arange(40, dtype=np.int64))
        ds = data.TensorDataset(images, labels)
        augment = transforms.Compose([transforms.RandomCrop(6, padding=2),
                                      transforms.RandomHorizontalFlip()])
        ds.props.transform = augment
        passes = {}
        for workers in (0, 2, 3):
            Gnn.manual_seed(5)
            loader = data.DataLoader(ds, batch_size=6, shuffle=True, num_workers=workers)
            passes[workers] = [batches(loader), batches(loader)]
        for workers in (2, 3):
            for epoch in (0, 1):
                assert_batches_equal(self, passes[workers][epoch], passes[0][epoch])
        first, second = passes[0]
        self.assertFalse(np.array_equal(np.concatenate([b[0] for b in first]),
                                        np.concatenate([b[0] for b in second])))
        # without shuffle each pass draws afresh too, as torch's
        loader = data.DataLoader(ds, batch_size=40, num_workers=2)
        a, b = batches(loader), batches(loader)
        np.testing.assert_array_equal(a[0][1], b[0][1])
        self.assertFalse(np.array_equal(a[0][0], b[0][0]))

    def test_python_dataset_in_workers(self):
        want = batches(data.DataLoader(Slow(), batch_size=4))
        ds = Slow(delay=0.002)
        loader = data.DataLoader(ds, batch_size=4, num_workers=3)
        assert_batches_equal(self, batches(loader), want)
        self.assertNotIn(threading.get_ident(), ds.threads)   # the samples came from the workers
        self.assertGreater(len(ds.threads), 1)
        # the consumer thread may run Python while the workers run theirs
        ticks = []
        stop = threading.Event()
        ticker = threading.Thread(target=lambda: [ticks.append(1) or time.sleep(0.001)
                                                  for _ in iter(lambda: stop.is_set(), True)])
        ticker.start()
        try:
            assert_batches_equal(self, batches(data.DataLoader(Slow(delay=0.002), batch_size=4,
                                                                num_workers=2)), want)
        finally:
            stop.set()
            ticker.join()
        self.assertGreater(len(ticks), 0)

    def test_error_at_its_batch(self):
        for workers in (0, 2):
            with self.subTest(num_workers=workers):
                loader = data.DataLoader(Slow(fail_at=9), batch_size=4, num_workers=workers)
                got = []
                with self.assertRaises(GLib.Error) as caught:
                    for b in loader:
                        got.append(to_np(b[1]))
                self.assertIsInstance(caught.exception, RuntimeError)
                self.assertIn('sample 9 is broken', str(caught.exception))
                self.assertEqual(len(got), 2)   # batches 0 and 1; sample 9 is in batch 2
                np.testing.assert_array_equal(got[1], [4, 5, 6, 7])
        # a C transform that fails in a worker: the same error as without workers
        ds = data.TensorDataset(to_gnn(np.zeros((8, 1, 4, 4), dtype=np.float32)))
        crop = transforms.RandomCrop(6)
        ds.props.transform = crop
        messages = []
        for workers in (0, 2):
            with self.assertRaises(ValueError) as caught:
                list(data.DataLoader(ds, batch_size=2, num_workers=workers))
            messages.append(str(caught.exception))
        self.assertEqual(messages[0], messages[1])
        self.assertIn('Required crop size (6, 6) is larger than input image size (4, 4)', messages[0])

    def test_early_break(self):
        ds = Slow(n=200, delay=0.001)
        loader = data.DataLoader(ds, batch_size=2, num_workers=3, prefetch_factor=2)
        for b in loader:
            break
        np.testing.assert_array_equal(to_np(b[1]), [0, 1])
        it = iter(loader)
        next(it)
        del it   # the pass's workers are joined, with the GIL released
        self.assertEqual(len(list(loader)), 100)

    def test_timeout(self):
        loader = data.DataLoader(Slow(delay=0.5), batch_size=1, num_workers=1, timeout=0.05)
        with self.assertRaises(RuntimeError) as caught:
            list(loader)
        self.assertIn('DataLoader timed out after 0.05 seconds', str(caught.exception))
        self.assertEqual(loader.get_timeout(), 0.05)

    def test_gobject_construction(self):
        ds = data.TensorDataset(to_gnn(np.arange(10, dtype=np.int64)))
        loader = Gnn.DataLoader(dataset=ds, batch_size=3, num_workers=2, prefetch_factor=3)
        self.assertEqual((loader.props.num_workers, loader.props.prefetch_factor), (2, 3))
        self.assertEqual([to_np(b[0]).tolist() for b in loader], [[0, 1, 2], [3, 4, 5], [6, 7, 8], [9]])

    def test_python_collated_path_same_order(self):
        # collate_fn: batches made on the calling thread (num_workers has no effect), in order
        loader = data.DataLoader(list(range(10)), batch_size=3, num_workers=2, collate_fn=list)
        self.assertEqual(list(loader), [[0, 1, 2], [3, 4, 5], [6, 7, 8], [9]])
        self.assertEqual(loader.num_workers, 2)


if __name__ == '__main__':
    main()
