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
from torch_note_modules import StatefulModule


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


class PyStateful(Gnn.Module):
    """the Modules note's StatefulModule, with extra state (a step count and a tag)"""
    __gtype_name__ = 'PyStateful'

    def do_setup(self):
        self.step = 0
        self.tag = ''
        self.param1 = gparam([2], 10)
        self.register_parameter('param2', gparam([3], 11))
        self.register_parameter('param3', None)
        self.param_list = Gnn.ParameterList.new([gparam([2], 12 + i) for i in range(3)])
        pd = Gnn.ParameterDict.new()
        # torch 1.13's ParameterDict sorts the keys of a plain dict: bar, then foo
        pd.set('bar', gparam([4], 15))
        pd.set('foo', gparam([3], 16))
        self.param_dict = pd
        self.register_buffer('buffer1', to_gnn(rand([4], seed=17)), True)
        self.register_buffer('buffer2', to_gnn(rand([5], seed=18)), False)
        self.register_buffer('buffer3', None, True)
        self.linear = Gnn.Linear.new(2, 3, True)
        return True

    def do_get_extra_state(self):
        return GLib.Variant('(xs)', (self.step, self.tag))

    def do_set_extra_state(self, state):
        if state.get_type_string() != '(xs)':
            raise GLib.Error('extra state of type %s, not (xs)' % state.get_type_string())
        self.step, self.tag = state.unpack()
        return True


class TorchStateful(StatefulModule):
    def __init__(self):
        super().__init__()
        self.step, self.tag = 0, ''

    def get_extra_state(self):
        return (self.step, self.tag)

    def set_extra_state(self, state):
        self.step, self.tag = state


class ExtraStateTest(ParityTest):
    def test_keys_match_torch(self):
        want = list(TorchStateful().state_dict().keys())
        self.assertIn('_extra_state', want)
        m = PyStateful()
        self.assertTrue(m.has_extra_state())
        self.assertEqual(list(m.state_dict(None, False).get_keys()), want)
        outer_t, outer = nn.Module(), SDLeaf()
        outer_t.weight = nn.Parameter(torch.randn(2, 3))
        outer_t.register_buffer('count', torch.tensor(7))
        outer_t.s = TorchStateful()
        outer.s = PyStateful()
        self.assertEqual(list(outer.state_dict('m', False).get_keys()),
                         list(outer_t.state_dict(prefix='m.').keys()))

    def test_round_trip(self):
        a, b = PyStateful(), PyStateful()
        a.step, a.tag = 7, 'seven'
        sd = a.state_dict(None, False)
        extra = sd.get_value('_extra_state')
        self.assertIsInstance(extra, GLib.Variant)
        self.assertEqual(extra.unpack(), (7, 'seven'))
        self.assertEqual(load(b, sd), [[], []])
        self.assertEqual((b.step, b.tag), (7, 'seven'))
        np.testing.assert_array_equal(to_np(b.get_parameter('param_dict.foo')),
                                      to_np(a.get_parameter('param_dict.foo')))
        # as torch: without the key, "_extra_state" is missing
        ta, tb = TorchStateful(), TorchStateful()
        tsd = ta.state_dict()
        del tsd['_extra_state']
        sd.remove('_extra_state')
        self.assertEqual(load(b, sd, strict=False), [tb.load_state_dict(tsd, strict=False).missing_keys, []])
        self.assertEqual(load(b, sd, strict=False), [['_extra_state'], []])

    def test_failing_set_extra_state(self):
        a, b = PyStateful(), PyStateful()
        sd = a.state_dict(None, False)
        sd.set_value('_extra_state', GLib.Variant('s', 'wrong'))
        before = to_np(b.get_parameter('param1')).copy()
        with self.assertRaises(GLib.Error) as cm:
            b.load_state_dict(sd, True, False)
        self.assertIn('extra state of type s, not (xs)', cm.exception.message)
        np.testing.assert_array_equal(to_np(b.get_parameter('param1')), before)


class HookTest(ParityTest):
    """the hooks' order against torch 1.13's (its _register_state_dict_hook is the post-hook,
    _register_load_state_dict_pre_hook the load pre-hook); the state-dict pre-hook, which
    1.13 lacks, against the reference text: before the module saves anything"""

    def setUp(self):
        torch.manual_seed(0)
        self.net = SDNet()
        self.tnet = SDNetTorch()

    def modules(self):
        return [('', self.net, self.tnet), ('block.', self.net.get_submodule('block'), self.tnet.block),
                ('block.inner.', self.net.get_submodule('block.inner'), self.tnet.block.inner),
                ('head.', self.net.get_submodule('head'), self.tnet.head)]

    def test_state_dict_hooks(self):
        glog, tlog = [], []
        for name, g, t in self.modules():
            g.register_state_dict_pre_hook(
                lambda m, prefix, keep_vars, *extra, name=name: glog.append(('pre', name, prefix, keep_vars)),
                None)
            g.register_state_dict_post_hook(
                lambda m, state, prefix, *extra, name=name: glog.append(('post', name, prefix, state.get_length())),
                None)
            t._register_state_dict_hook(
                lambda m, state, prefix, meta, name=name: tlog.append(('post', name, prefix, len(state))))
        self.net.state_dict('model', True)
        self.tnet.state_dict(prefix='model.', keep_vars=True)
        self.assertEqual([e for e in glog if e[0] == 'post'], tlog)
        pre = [e for e in glog if e[0] == 'pre']
        self.assertEqual(pre, [('pre', n, 'model.' + n, True) for n, _, _ in self.modules()])
        # each pre-hook comes before the entries of its module, each post-hook after its subtree
        self.assertEqual([e[1] for e in glog],
                         ['', 'block.', 'block.inner.', 'block.inner.', 'block.', 'head.', 'head.', ''])

    def test_post_hook_edits(self):
        def drop_count(m, state, prefix, *extra):
            state.remove(prefix + 'count')
            state.set_tensor(prefix + 'added', to_gnn(np.zeros(1, np.float32)))

        def tdrop_count(m, state, prefix, meta):
            del state[prefix + 'count']
            state[prefix + 'added'] = torch.zeros(1)

        self.net.get_submodule('head').register_state_dict_post_hook(drop_count, None)
        self.tnet.head._register_state_dict_hook(tdrop_count)
        self.assertEqual(list(self.net.state_dict(None, False).get_keys()),
                         list(self.tnet.state_dict().keys()))

    def test_load_pre_hooks(self):
        glog, tlog = [], []
        for name, g, t in self.modules():
            g.register_load_state_dict_pre_hook(
                lambda m, state, prefix, strict, *extra, name=name:
                    glog.append((name, prefix, list(state.get_keys()))), None)
            t._register_load_state_dict_pre_hook(
                lambda m, state, prefix, meta, strict, mk, uk, em, name=name:
                    tlog.append((name, prefix, list(state.keys()))), with_module=True)
        tstate = self.tnet.state_dict()
        load(self.net, to_gnn_state(tstate))
        self.tnet.load_state_dict(tstate)
        self.assertEqual(glog, tlog)

        # a pre-hook renaming keys of an old checkpoint
        def rename(m, state, prefix, strict, *extra):
            if state.contains(prefix + 'old_weight'):
                t = state.get_tensor(prefix + 'old_weight')
                state.remove(prefix + 'old_weight')
                state.set_tensor(prefix + 'weight', t)
        sd = to_gnn_state(tstate)
        sd.remove('head.weight')
        sd.set_tensor('head.old_weight', to_gnn(np.full((2, 3), 5, np.float32)))
        handle = self.net.get_submodule('head').register_load_state_dict_pre_hook(rename, None)
        self.assertEqual(load(self.net, sd), [[], []])
        np.testing.assert_array_equal(to_np(self.net.get_parameter('head.weight')), np.full((2, 3), 5))
        self.assertTrue(sd.contains('head.old_weight'))      # the caller's dict is untouched
        self.assertTrue(self.net.get_submodule('head').remove_state_dict_hook(handle))
        self.assertEqual(load(self.net, sd, strict=False), [['head.weight'], ['head.old_weight']])

    def test_load_post_hook_strict(self):
        tstate = self.tnet.state_dict()
        del tstate['block.bias']
        order, torder = [], []

        def forgive(m, keys, *extra):
            order.append('block')
            self.assertEqual(list(keys.get_missing_keys()), ['block.bias'])
            self.assertTrue(keys.remove_missing_key('block.bias'))

        def tforgive(m, keys):
            torder.append('block')
            keys.missing_keys.remove('block.bias')

        self.net.get_submodule('block').register_load_state_dict_post_hook(forgive, None)
        self.net.register_load_state_dict_post_hook(lambda m, keys, *extra: order.append('net'), None)
        self.tnet.block.register_load_state_dict_post_hook(tforgive)
        self.tnet.register_load_state_dict_post_hook(lambda m, keys: torder.append('net'))
        self.tnet.load_state_dict(tstate)          # strict, and no error
        self.assertEqual(load(self.net, to_gnn_state(tstate)), [[], []])
        self.assertEqual(order, torder)
        np.testing.assert_array_equal(to_np(self.net.get_parameter('block.weight')),
                                      tstate['block.weight'].numpy())

    def test_removal(self):
        calls = []
        h = self.net.register_state_dict_pre_hook(lambda *a: calls.append(1), None)
        self.net.state_dict(None, False)
        self.assertTrue(self.net.remove_state_dict_hook(h))
        self.assertFalse(self.net.remove_state_dict_hook(h))
        self.net.state_dict(None, False)
        self.assertEqual(calls, [1])


if __name__ == '__main__':
    main()
