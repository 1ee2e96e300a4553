#!/usr/bin/python3
"""state_dict / load_state_dict from Python, against torch: the same nested model built in
both (a child registered before the parent's own parameters, buffers persistent or not,
reserved slots) must give the same keys in the same order, load torch's values, and fail
with torch's words."""
import re

import numpy as np
import torch
from torch import nn

from gnntest import Gnn, GLib, ParityTest, main, rand, to_gnn, to_np


def gparam(shape, seed):
    return Gnn.Parameter.new(to_gnn(rand(shape, seed=seed)), True)


class SDLeaf(Gnn.Module):
    __gtype_name__ = 'SDLeaf'

    def do_setup(self):
        self.weight = gparam([2, 3], 1)
        self.register_buffer('count', to_gnn(np.array(5, dtype=np.int64)), True)
        return True


class SDBlock(Gnn.Module):
    __gtype_name__ = 'SDBlock'

    def do_setup(self):
        self.inner = SDLeaf()            # before the block's own parameters
        self.weight = gparam([3, 4], 2)
        self.bias = gparam([3], 3)
        self.register_buffer('running', to_gnn(rand([3], seed=4)), True)
        self.register_buffer('scratch', to_gnn(rand([3], seed=5)), False)
        return True


class SDNet(Gnn.Module):
    __gtype_name__ = 'SDNet'

    def do_setup(self):
        self.block = SDBlock()
        self.scale = gparam([2], 6)
        self.head = SDLeaf()
        self.register_parameter('unused', None)
        self.register_buffer('hole', None, True)
        self.register_module('nothing', None)
        return True


class TorchLeaf(nn.Module):
    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(2, 3))
        self.register_buffer('count', torch.tensor(7))


class TorchBlock(nn.Module):
    def __init__(self):
        super().__init__()
        self.inner = TorchLeaf()
        self.weight = nn.Parameter(torch.randn(3, 4))
        self.bias = nn.Parameter(torch.randn(3))
        self.register_buffer('running', torch.randn(3))
        self.register_buffer('scratch', torch.randn(3), persistent=False)


class SDNetTorch(nn.Module):
    def __init__(self):
        super().__init__()
        self.block = TorchBlock()
        self.scale = nn.Parameter(torch.randn(2))
        self.head = TorchLeaf()
        self.register_parameter('unused', None)
        self.register_buffer('hole', None)
        self.register_module('nothing', None)


# gnn's module name is the Python class name; torch's message names the class too
SDNetTorch.__name__ = 'SDNet'


def to_gnn_state(torch_state):
    sd = Gnn.StateDict.new()
    for k, v in torch_state.items():
        sd.set_tensor(k, to_gnn(v.detach().numpy()))
    return sd


def torch_error(model, state, strict=True):
    try:
        model.load_state_dict(state, strict=strict)
    except RuntimeError as e:
        # torch prints shapes as torch.Size([3, 4]), gnn as [3, 4]
        return re.sub(r'torch\.Size\((\[[^\]]*\])\)', r'\1', str(e))
    raise AssertionError('torch loaded the state')


def gnn_error(test, model, state, strict=True):
    with test.assertRaises(GLib.Error) as cm:
        model.load_state_dict(state, strict, False)
    return cm.exception.message


def load(model, state, strict=True, assign=False):
    """(missing, unexpected), whatever PyGObject makes of the boolean return"""
    out = model.load_state_dict(state, strict, assign)
    if len(out) == 3:
        out = out[1:]
    return [list(k or []) for k in out]


class StateDictTest(ParityTest):
    def setUp(self):
        torch.manual_seed(0)
        self.net = SDNet()
        self.tnet = SDNetTorch()

    def test_keys_match_torch(self):
        want = list(self.tnet.state_dict().keys())
        self.assertEqual(want[:3], ['scale', 'block.weight', 'block.bias'])   # own first
        self.assertEqual(list(self.net.state_dict(None, False).get_keys()), want)
        self.assertEqual(list(self.net.state_dict('model', False).get_keys()),
                         list(self.tnet.state_dict(prefix='model.').keys()))

    def test_keep_vars(self):
        kept = self.net.state_dict(None, True)
        detached = self.net.state_dict(None, False)
        w = self.net.get_parameter('block.weight')
        self.assertIs(kept.get_tensor('block.weight'), w)
        d = detached.get_tensor('block.weight')
        self.assertIsNot(d, w)
        self.assertFalse(d.get_requires_grad())
        self.assertTrue(d.shares_storage(w))

    def test_load_torch_values(self):
        tstate = self.tnet.state_dict()
        missing, unexpected = load(self.net, to_gnn_state(tstate))
        self.assertEqual((missing, unexpected), ([], []))
        mine = self.net.state_dict(None, False)
        for k, v in tstate.items():
            got = to_np(mine.get_tensor(k))
            self.assertEqual(got.dtype, v.numpy().dtype, k)
            np.testing.assert_array_equal(got, v.numpy(), err_msg=k)
        # the parameters are still the module's own, requiring grad
        self.assertTrue(self.net.get_parameter('block.inner.weight').get_requires_grad())

    def test_round_trip(self):
        other = SDNet()
        load(other, self.net.state_dict(None, False))
        for k in self.tnet.state_dict().keys():
            np.testing.assert_array_equal(to_np(other.state_dict(None, False).get_tensor(k)),
                                          to_np(self.net.state_dict(None, False).get_tensor(k)))

    def edit(self, state, tensor_of):
        """the same edits on a torch state and a gnn one: two keys removed, keys added that
        torch counts as unexpected (or ignores)"""
        del state['scale']
        del state['block.inner.count']
        state['unused'] = tensor_of(np.zeros(2, np.float32))          # a None parameter
        state['block.scratch'] = tensor_of(np.zeros(3, np.float32))   # non-persistent
        state['block.extra'] = tensor_of(np.zeros(1, np.float32))
        state['bogus.x'] = tensor_of(np.zeros(1, np.float32))
        state['nothing.x'] = tensor_of(np.zeros(1, np.float32))       # under a None module
        state['_extra_state'] = tensor_of(np.zeros(1, np.float32))

    def to_gnn_dict(self, tstate):
        sd = Gnn.StateDict.new()
        for k, v in tstate.items():
            sd.set_tensor(k, to_gnn(np.asarray(v)))
        return sd

    def test_missing_unexpected_wording(self):
        tstate = {k: v.numpy() for k, v in self.tnet.state_dict().items()}
        self.edit(tstate, lambda a: a)
        want = torch_error(self.tnet, {k: torch.from_numpy(v) for k, v in tstate.items()})
        before = {k: to_np(v).copy() for k, v in
                  zip(self.net.state_dict(None, False).get_keys(),
                      [self.net.state_dict(None, False).get_tensor(k)
                       for k in self.net.state_dict(None, False).get_keys()])}
        got = gnn_error(self, self.net, self.to_gnn_dict(tstate))
        self.assertEqual(got, want)
        self.assertIn('Missing key(s) in state_dict: "scale", "block.inner.count". ', got)
        # nothing was loaded
        after = self.net.state_dict(None, False)
        for k, v in before.items():
            np.testing.assert_array_equal(to_np(after.get_tensor(k)), v)

        # not strict: the same lists as torch, and the rest loaded
        tres = self.tnet.load_state_dict({k: torch.from_numpy(v) for k, v in tstate.items()}, strict=False)
        missing, unexpected = load(self.net, self.to_gnn_dict(tstate), strict=False)
        self.assertEqual(missing, tres.missing_keys)
        self.assertEqual(unexpected, tres.unexpected_keys)
        np.testing.assert_array_equal(to_np(self.net.get_parameter('block.weight')), tstate['block.weight'])

    def test_size_mismatch_wording(self):
        tstate = {k: v.numpy() for k, v in self.tnet.state_dict().items()}
        tstate['block.weight'] = np.zeros((3, 5), np.float32)
        tstate['head.weight'] = np.zeros((2,), np.float32)
        del tstate['scale']
        for strict in (True, False):
            want = torch_error(SDNetTorch(), {k: torch.from_numpy(v) for k, v in tstate.items()}, strict)
            got = gnn_error(self, self.net, self.to_gnn_dict(tstate), strict)
            self.assertEqual(got, want)
        self.assertIn('size mismatch for block.weight: copying a param with shape [3, 5] from checkpoint, '
                      'the shape in current model is [3, 4].', got)

    def test_dtype_converted_as_torch(self):
        tstate = {k: v.numpy() for k, v in self.tnet.state_dict().items()}
        tstate['scale'] = tstate['scale'].astype(np.float64) + 0.25
        tstate['block.inner.count'] = np.array(3.75)       # float into int64, as copy_ does
        self.tnet.load_state_dict({k: torch.from_numpy(v) for k, v in tstate.items()})
        load(self.net, self.to_gnn_dict(tstate))
        for k, v in self.tnet.state_dict().items():
            got = to_np(self.net.state_dict(None, False).get_tensor(k))
            self.assertEqual(got.dtype, v.numpy().dtype, k)
            np.testing.assert_array_equal(got, v.numpy(), err_msg=k)

    def test_assign(self):
        w = self.net.get_parameter('block.weight')
        sd = to_gnn_state(self.tnet.state_dict())
        load(self.net, sd, True, True)
        self.assertIs(self.net.get_parameter('block.weight'), w)
        self.assertTrue(w.get_requires_grad())
        self.assertTrue(w.shares_storage(sd.get_tensor('block.weight')))

    def test_map(self):
        sd = Gnn.StateDict.new()
        sd.set_tensor('b', to_gnn(np.zeros(2, np.float32)))
        sd.set_tensor('a', to_gnn(np.ones(2, np.float32)))
        self.assertEqual(list(sd.get_keys()), ['b', 'a'])
        self.assertEqual(sd.get_length(), 2)
        self.assertTrue(sd.contains('a'))
        with self.assertRaises(GLib.Error):
            sd.get_tensor('c')
        self.assertTrue(sd.remove('b'))
        self.assertEqual(list(sd.get_keys()), ['a'])


if __name__ == '__main__':
    main()
