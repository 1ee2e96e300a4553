"""Shared helpers for gnn's Python tests: moving data between numpy, torch and gnn, and
comparing an op's outputs and gradients with PyTorch's (the oracle)."""
import os
import sys
import unittest

import gi
gi.require_version('Gnn', '1.0')
from gi.repository import Gnn, GLib, GObject  # noqa: E402
import numpy as np  # noqa: E402
import torch  # noqa: E402

torch.set_num_threads(int(os.environ.get('GNN_NUM_THREADS', '1')))

NP_OF = {
    Gnn.Dtype.FLOAT32: np.float32, Gnn.Dtype.FLOAT64: np.float64, Gnn.Dtype.INT64: np.int64,
    Gnn.Dtype.BOOL: np.bool_, Gnn.Dtype.UINT8: np.uint8,
}
GNN_OF = {np.dtype(v): k for k, v in NP_OF.items()}

# PyTorch's float32 tolerance, the project standard: rel 1e-5, abs 1e-6
TOL = {np.float32: (1e-5, 1e-6), np.float64: (1e-10, 1e-12)}


def to_gnn(array, requires_grad=False):
    # a copy: Tensor.from_numpy shares the array's memory, as torch.from_numpy does, and the
    # tests keep using their arrays as expected values after in-place ops on the tensors
    t = Gnn.Tensor.from_numpy(np.array(array))
    if requires_grad:
        t.set_requires_grad(True)
    return t


def to_np(t):
    # a copy: Tensor.numpy shares a CPU tensor's memory, as torch's does
    return np.array(t.numpy())


def to_torch(array, requires_grad=False):
    t = torch.from_numpy(np.array(array, copy=True, order='C'))
    if requires_grad:
        t.requires_grad_(True)
    return t


def rand(shape, dtype=np.float32, seed=0, low=-2.0, high=2.0):
    rng = np.random.default_rng(seed)
    return rng.uniform(low, high, size=shape).astype(dtype)


class Input:
    """An input given to both libraries, as a plain tensor or as a transposed slice of a
    larger leaf (a non-contiguous view), so that strided kernels are exercised."""

    def __init__(self, array, kind='plain', requires_grad=True):
        self.array = np.asarray(array)
        self.kind = kind
        self.requires_grad = requires_grad and self.array.dtype.kind == 'f'
        if kind == 'tslice' and self.array.ndim >= 2:
            # the leaf holds the transpose with an extra column; the input is its view
            swapped = np.swapaxes(self.array, -1, -2)
            pad = np.zeros(swapped.shape[:-1] + (1,), dtype=self.array.dtype)
            self.leaf_array = np.ascontiguousarray(np.concatenate([swapped, pad], axis=-1))
        else:
            self.kind = 'plain'
            self.leaf_array = self.array

    def make_torch(self):
        leaf = to_torch(self.leaf_array, self.requires_grad)
        if self.kind == 'tslice':
            n = self.leaf_array.shape[-1] - 1
            return leaf, leaf[..., :n].transpose(-1, -2)
        return leaf, leaf

    def make_gnn(self):
        leaf = to_gnn(self.leaf_array, self.requires_grad)
        if self.kind == 'tslice':
            n = self.leaf_array.shape[-1] - 1
            view = leaf.narrow(-1, 0, n).transpose(-1, -2)
            assert not view.is_contiguous() or min(view.shape) <= 1
            return leaf, view
        return leaf, leaf


class ParityTest(unittest.TestCase):
    """Base class: check_op runs an op in both libraries and compares."""

    def assert_close(self, got, want, rtol, atol, what=''):
        got = np.asarray(got)
        want = np.asarray(want)
        self.assertEqual(got.shape, want.shape, '%s: shape %s, expected %s' % (what, got.shape, want.shape))
        if want.dtype.kind in 'biu':
            np.testing.assert_array_equal(got, want, err_msg=what)
        else:
            np.testing.assert_allclose(got, want, rtol=rtol, atol=atol, equal_nan=True, err_msg=what)

    def check_op(self, gnn_fn, torch_fn, inputs, grad=True, rtol=None, atol=None, seed=1, name=''):
        """Runs gnn_fn and torch_fn on the same inputs (Input objects or arrays) and compares
        outputs and, when grad is set, the gradients of every floating-point leaf for a
        random upstream gradient."""
        inputs = [i if isinstance(i, Input) else Input(i) for i in inputs]
        floats = [i.array.dtype for i in inputs if i.array.dtype.kind == 'f']
        dt = np.float64 if floats and all(d == np.float64 for d in floats) else np.float32
        r, a = TOL[dt]
        rtol = r if rtol is None else rtol
        atol = a if atol is None else atol
        tl, tv = zip(*[i.make_torch() for i in inputs])
        gl, gv = zip(*[i.make_gnn() for i in inputs])
        want = torch_fn(*tv)
        got = gnn_fn(*gv)
        self.assert_close(to_np(got), want.detach().numpy(), rtol, atol, name + ' output')
        if not grad or not want.requires_grad:
            return got
        upstream = rand(tuple(want.shape), want.detach().numpy().dtype, seed=seed + 100)
        want.backward(torch.from_numpy(upstream))
        got.backward(to_gnn(upstream), False)
        for k, (t_leaf, g_leaf) in enumerate(zip(tl, gl)):
            if not inputs[k].requires_grad:
                continue
            self.assertIsNotNone(g_leaf.get_grad(), '%s: no gradient for input %d' % (name, k))
            self.assert_close(to_np(g_leaf.get_grad()), t_leaf.grad.numpy(), rtol, atol,
                              '%s grad of input %d' % (name, k))
        return got


def main():
    unittest.main(verbosity=2)


def _check_backend():
    wanted = os.environ.get('GNN_BACKEND')
    if wanted and wanted != 'help':
        name = Gnn.Backend.get_for_device_type('cpu').get_name()
        assert name == wanted, 'GNN_BACKEND=%s but the cpu device is served by %s' % (wanted, name)


_check_backend()
