"""The Transformer layers against torch 1.13 with torch's weights loaded into gnn's (the
state-dict keys are torch's): outputs in eval mode, the gradients of the inputs and of every
parameter in train mode with dropout=0.0, in float32 and float64, batch_first and norm_first
both ways, relu and gelu (as strings, F functions and modules), bool and float masks, key
padding masks, unbatched input; printed forms, state-dict keys and the errors. PyTorch 2's
is_causal hints (which 1.13 lacks) are checked against 1.13 given the causal mask.

torch runs its slow path here (grad mode is on and the parameters require grad), the one
whose semantics PyTorch documents; its fused fast path computes the same.

Tolerances: float32 at rel 1e-4 / abs 1e-5 rather than 1e-5 / 1e-6: the outputs go through
two or more layer normalizations, attention softmaxes and 16-wide feed-forward sums whose
float32 rounding differs with the order of the sums (BLAS against torch's kernels); float64
stays at 1e-10 / 1e-12."""
import unittest

import numpy as np
import torch

from gnntest import ParityTest, main, rand, to_np
import gnn
import gnn.nn as nn
import gnn.nn.functional as F

S, T, N, E, H, FF = 5, 4, 3, 8, 2, 16
TOL = {np.float32: (1e-4, 1e-5), np.float64: (1e-10, 1e-12)}


def err(e):
    return getattr(e, 'message', str(e))


def gdtype(dtype):
    return gnn.float64 if dtype == np.float64 else gnn.float32


def tdtype(dtype):
    return torch.float64 if dtype == np.float64 else torch.float32


def load(g, t):
    """torch's weights into gnn's layer; the keys must be torch's"""
    keys = list(t.state_dict().keys())
    assert list(g.state_dict().keys()) == keys, (list(g.state_dict().keys()), keys)
    g.load_state_dict({k: gnn.tensor(v.detach().numpy()) for k, v in t.state_dict().items()})


class Base(ParityTest):
    def compare(self, g, t, inputs, dtype, gkw={}, tkw={}, train=False, what=''):
        """g(*inputs, **gkw) against t(*inputs, **tkw): the output, and in train mode the
        gradients of the inputs and of every parameter"""
        rtol, atol = TOL[dtype]
        g.train(train)
        t.train(train)
        gi = [gnn.tensor(a, requires_grad=train) for a in inputs]
        ti = [torch.tensor(a, requires_grad=train) for a in inputs]
        gout = g(*gi, **gkw)
        tout = t(*ti, **tkw)
        self.assertEqual(tuple(gout.shape), tuple(tout.shape), what)
        self.assert_close(to_np(gout.detach()), tout.detach().numpy(), rtol, atol, what + ' output')
        if not train:
            return
        w = rand(tuple(tout.shape), dtype, seed=10)
        (gout * gnn.tensor(w)).sum().backward()
        (tout * torch.tensor(w)).sum().backward()
        for k, (a, b) in enumerate(zip(gi, ti)):
            self.assert_close(to_np(a.grad), b.grad.numpy(), rtol, atol, '%s grad of input %d' % (what, k))
        gp = list(g.named_parameters())
        tp = list(t.named_parameters())
        self.assertEqual([n for n, _ in gp], [n for n, _ in tp])
        for (n, p), (_, q) in zip(gp, tp):
            self.assert_close(to_np(p.grad), q.grad.numpy(), rtol, atol, '%s grad of %s' % (what, n))


def src_shape(bf, L=S):
    return (N, L, E) if bf else (L, N, E)


class EncoderLayer(Base):
    def pair(self, dtype, gact='relu', tact='relu', **kw):
        torch.manual_seed(0)
        t = torch.nn.TransformerEncoderLayer(E, H, FF, activation=tact, **kw).to(tdtype(dtype))
        g = nn.TransformerEncoderLayer(E, H, FF, activation=gact, **kw, dtype=gdtype(dtype))
        load(g, t)
        return g, t

    def test_configs(self):
        acts = [('relu', 'relu'), ('gelu', 'gelu'), (F.gelu, torch.nn.functional.gelu),
                (F.relu, torch.nn.functional.relu)]
        for dtype in (np.float32, np.float64):
            for bf in (False, True):
                for nf in (False, True):
                    for ga, ta in acts:
                        with self.subTest(dtype=dtype, bf=bf, nf=nf, act=ta):
                            x = rand(src_shape(bf), dtype, seed=1)
                            g, t = self.pair(dtype, ga, ta, batch_first=bf, norm_first=nf)
                            self.compare(g, t, [x], dtype, what='eval')
                            g, t = self.pair(dtype, ga, ta, batch_first=bf, norm_first=nf, dropout=0.0)
                            self.compare(g, t, [x], dtype, train=True, what='train')

    def test_module_activation(self):
        for dtype in (np.float32, np.float64):
            g, t = self.pair(dtype, nn.GELU(), torch.nn.GELU(), dropout=0.0)
            self.assertEqual(repr(g), repr(t))
            self.compare(g, t, [rand((S, N, E), dtype, seed=1)], dtype, train=True)
            g, t = self.pair(dtype, lambda x: F.relu(x) * 2, lambda x: torch.nn.functional.relu(x) * 2,
                             dropout=0.0)
            self.compare(g, t, [rand((S, N, E), dtype, seed=1)], dtype, train=True)

    def test_unbatched(self):
        for dtype in (np.float32, np.float64):
            for nf in (False, True):
                g, t = self.pair(dtype, norm_first=nf, dropout=0.0)
                self.compare(g, t, [rand((S, E), dtype, seed=2)], dtype, train=True)
                kpm = np.array([False, False, True, False, True])
                self.compare(g, t, [rand((S, E), dtype, seed=2)], dtype,
                             dict(src_key_padding_mask=gnn.tensor(kpm)),
                             dict(src_key_padding_mask=torch.tensor(kpm)), train=True)

    def test_masks(self):
        rng = np.random.default_rng(3)
        b2 = rng.random((S, S)) < 0.3
        b2[:, 0] = False
        b3 = rng.random((N * H, S, S)) < 0.3
        b3[:, :, 0] = False
        kpm = np.zeros((N, S), bool)
        kpm[1, 3:] = True
        kpm[2, 4] = True
        for dtype in (np.float32, np.float64):
            f2 = rand((S, S), dtype, seed=5)
            f3 = rand((N * H, S, S), dtype, seed=6)
            fk = np.where(kpm, -1e4, 0).astype(dtype)
            for bf in (False, True):
                for masks in (dict(src_mask=b2), dict(src_mask=b3), dict(src_mask=f2), dict(src_mask=f3),
                              dict(src_key_padding_mask=kpm), dict(src_key_padding_mask=fk),
                              dict(src_mask=f2, src_key_padding_mask=kpm),
                              dict(src_mask=b2, src_key_padding_mask=kpm)):
                    with self.subTest(dtype=dtype, bf=bf, masks=sorted(masks)):
                        gm = {k: gnn.tensor(v) for k, v in masks.items()}
                        tm = {k: torch.tensor(v) for k, v in masks.items()}
                        x = rand(src_shape(bf), dtype, seed=1)
                        g, t = self.pair(dtype, batch_first=bf)
                        self.compare(g, t, [x], dtype, gm, tm)
                        g, t = self.pair(dtype, batch_first=bf, dropout=0.0)
                        self.compare(g, t, [x], dtype, gm, tm, train=True)

    def test_is_causal(self):
        causal = nn.Transformer.generate_square_subsequent_mask(S)
        want = np.triu(np.full((S, S), -np.inf, np.float32), 1)
        np.testing.assert_array_equal(to_np(causal), want)
        for dtype in (np.float32, np.float64):
            mask = want.astype(dtype)
            g, t = self.pair(dtype, dropout=0.0)
            x = rand((S, N, E), dtype, seed=1)
            self.compare(g, t, [x], dtype, dict(src_mask=gnn.tensor(mask), is_causal=True),
                         dict(src_mask=torch.tensor(mask)), train=True)
            self.compare(g, t, [x], dtype, dict(src_mask=gnn.tensor(mask), is_causal=True),
                         dict(src_mask=torch.tensor(mask)))
        with self.assertRaises(Exception) as cm:
            g(gnn.tensor(x), is_causal=True)
        self.assertIn('Need attn_mask if specifying the is_causal hint', err(cm.exception))
        self.assertIn('TransformerEncoderLayer', err(cm.exception))

    def test_repr_and_keys(self):
        for kw in ({}, dict(norm_first=True, batch_first=True, layer_norm_eps=1e-6, dropout=0.2)):
            g = nn.TransformerEncoderLayer(E, H, FF, **kw)
            t = torch.nn.TransformerEncoderLayer(E, H, FF, **kw)
            self.assertEqual(repr(g), repr(t))
            self.assertEqual(list(g.state_dict().keys()), list(t.state_dict().keys()))
            self.assertEqual([tuple(v.shape) for v in g.state_dict().values()],
                             [tuple(v.shape) for v in t.state_dict().values()])
        g = nn.TransformerEncoderLayer(E, H)
        self.assertEqual(tuple(g.linear1.weight.shape), (2048, E))   # dim_feedforward=2048
        self.assertEqual(g.norm1.props.eps, 1e-5)
        self.assertEqual(g.dropout.props.p, 0.1)
        self.assertEqual(g.self_attn.props.dropout, 0.1)
        self.assertFalse(g.self_attn.props.batch_first)

    def test_errors(self):
        g, _ = self.pair(np.float32)
        cases = [
            (rand((S, N, 6)), 'expected src with d_model=8 features in its last dimension, got src of shape [5, 3, 6]'),
            (rand((S, N, E, 1)), 'expected src to be an unbatched 2-D or a batched 3-D tensor, got src of shape'),
        ]
        for x, msg in cases:
            with self.subTest(msg=msg):
                with self.assertRaises(Exception) as cm:
                    g(gnn.tensor(x))
                self.assertIn(msg, err(cm.exception))
                self.assertIn('TransformerEncoderLayer', err(cm.exception))
        x = gnn.tensor(rand((S, N, E)))
        with self.assertRaises(Exception) as cm:
            g(x, src_mask=gnn.tensor(np.zeros((S, S + 1), bool)))
        self.assertIn('The shape of the 2D attn_mask is [5, 6], but should be (5, 5)', err(cm.exception))
        self.assertIn('TransformerEncoderLayer', err(cm.exception))
        for kw, msg in ((dict(nhead=3), 'embed_dim must be divisible by num_heads'),
                        (dict(activation='tanh'), 'activation should be relu/gelu, not tanh')):
            with self.subTest(msg=msg):
                with self.assertRaises(Exception) as cm:   # at construction or at first use
                    bad = nn.TransformerEncoderLayer(**dict(dict(d_model=E, nhead=H), **kw))
                    bad(x)
                self.assertIn(msg, err(cm.exception))


class Encoder(Base):
    def pair(self, dtype, num_layers=2, norm=True, **kw):
        torch.manual_seed(0)
        tl = torch.nn.TransformerEncoderLayer(E, H, FF, **kw)
        t = torch.nn.TransformerEncoder(tl, num_layers, torch.nn.LayerNorm(E) if norm else None).to(tdtype(dtype))
        gl = nn.TransformerEncoderLayer(E, H, FF, **kw, dtype=gdtype(dtype))
        g = nn.TransformerEncoder(gl, num_layers, nn.LayerNorm(E, dtype=gdtype(dtype)) if norm else None)
        load(g, t)
        return g, t

    def test_configs(self):
        kpm = np.zeros((N, S), bool)
        kpm[1, 3:] = True
        for dtype in (np.float32, np.float64):
            for bf in (False, True):
                for nf in (False, True):
                    for norm in (False, True):
                        with self.subTest(dtype=dtype, bf=bf, nf=nf, norm=norm):
                            x = rand(src_shape(bf), dtype, seed=1)
                            g, t = self.pair(dtype, norm=norm, batch_first=bf, norm_first=nf, activation='gelu')
                            self.compare(g, t, [x], dtype, what='eval')
                            g, t = self.pair(dtype, norm=norm, batch_first=bf, norm_first=nf, dropout=0.0)
                            self.compare(g, t, [x], dtype, train=True, what='train')
                            m = dict(mask=np.where(rand((S, S), dtype, seed=4) > 1, -np.inf, 0).astype(dtype),
                                     src_key_padding_mask=kpm)
                            self.compare(g, t, [x], dtype, {k: gnn.tensor(v) for k, v in m.items()},
                                         {k: torch.tensor(v) for k, v in m.items()}, train=True, what='masks')

    def test_unbatched(self):
        for dtype in (np.float32, np.float64):
            g, t = self.pair(dtype, dropout=0.0)
            self.compare(g, t, [rand((S, E), dtype, seed=2)], dtype, train=True)

    def test_is_causal(self):
        causal = np.triu(np.full((S, S), -np.inf), 1)
        for dtype in (np.float32, np.float64):
            g, t = self.pair(dtype, dropout=0.0)
            x = rand((S, N, E), dtype, seed=1)
            for mask in (causal.astype(dtype), np.isinf(causal)):
                for hint in (None, True, False):
                    with self.subTest(dtype=dtype, mask=mask.dtype, hint=hint):
                        self.compare(g, t, [x], dtype, dict(mask=gnn.tensor(mask), is_causal=hint),
                                     dict(mask=torch.tensor(mask)), train=True)
        with self.assertRaises(Exception) as cm:
            g(gnn.tensor(x), is_causal=True)
        self.assertIn('Need attn_mask if specifying the is_causal hint', err(cm.exception))
        self.assertIn('TransformerEncoder: layers.0: TransformerEncoderLayer', err(cm.exception))

    def test_clones(self):
        layer = nn.TransformerEncoderLayer(E, H, FF)
        g = nn.TransformerEncoder(layer, 3)
        t = torch.nn.TransformerEncoder(torch.nn.TransformerEncoderLayer(E, H, FF), 3)
        self.assertEqual(list(g.state_dict().keys()), list(t.state_dict().keys()))
        self.assertEqual(repr(g), repr(t))
        sd = g.state_dict()
        for k, v in layer.state_dict().items():   # equal values, as deep copies
            for i in range(3):
                np.testing.assert_array_equal(to_np(sd['layers.%d.%s' % (i, k)]), to_np(v))
        p0, p1 = g.layers[0].linear1.weight, g.layers[1].linear1.weight
        self.assertIsNot(p0, p1)
        self.assertIsNot(p0, layer.linear1.weight)
        with gnn.no_grad():
            p0.mul_(2.0)
        self.assertFalse(np.array_equal(to_np(p0.detach()), to_np(p1.detach())))
        np.testing.assert_array_equal(to_np(p1.detach()), to_np(layer.linear1.weight.detach()))
        self.assertEqual(len(list(g.parameters())), 3 * len(list(layer.parameters())))
        gn = nn.TransformerEncoder(layer, 2, nn.LayerNorm(E), enable_nested_tensor=False, mask_check=False)
        tn = torch.nn.TransformerEncoder(torch.nn.TransformerEncoderLayer(E, H, FF), 2, torch.nn.LayerNorm(E),
                                         enable_nested_tensor=False)
        self.assertEqual(list(gn.state_dict().keys()), list(tn.state_dict().keys()))
        self.assertEqual(repr(gn), repr(tn))
        self.assertFalse(gn.props.enable_nested_tensor)
        self.assertTrue(nn.TransformerEncoder(layer, 1).props.enable_nested_tensor)
        import copy
        gc = copy.deepcopy(gn)
        self.assertEqual(list(gc.state_dict().keys()), list(tn.state_dict().keys()))
        x = gnn.tensor(rand((S, N, E)))
        gn.eval()
        gc.eval()
        np.testing.assert_array_equal(to_np(gc(x).detach()), to_np(gn(x).detach()))

    def test_errors(self):
        g, _ = self.pair(np.float32)
        with self.assertRaises(Exception) as cm:
            g(gnn.tensor(rand((S, N, 6))))
        self.assertIn('TransformerEncoder: layers.0: TransformerEncoderLayer: expected src with d_model=8 '
                      'features in its last dimension, got src of shape [5, 3, 6]', err(cm.exception))
        x = gnn.tensor(rand((S, N, E)))
        with self.assertRaises(Exception) as cm:
            g(x, mask=gnn.tensor(np.zeros((S, S), np.int64)))
        self.assertIn('only bool and floating types of mask are supported', err(cm.exception))
        with self.assertRaises(TypeError):
            nn.TransformerEncoder(nn.TransformerEncoderLayer(E, H))


def tgt_shape(bf):
    return (N, T, E) if bf else (T, N, E)


class DecoderLayer(Base):
    def pair(self, dtype, gact='relu', tact='relu', **kw):
        torch.manual_seed(0)
        t = torch.nn.TransformerDecoderLayer(E, H, FF, activation=tact, **kw).to(tdtype(dtype))
        g = nn.TransformerDecoderLayer(E, H, FF, activation=gact, **kw, dtype=gdtype(dtype))
        load(g, t)
        return g, t

    def test_configs(self):
        for dtype in (np.float32, np.float64):
            for bf in (False, True):
                for nf in (False, True):
                    for ga, ta in (('relu', 'relu'), (F.gelu, torch.nn.functional.gelu)):
                        with self.subTest(dtype=dtype, bf=bf, nf=nf, act=ta):
                            ins = [rand(tgt_shape(bf), dtype, seed=1), rand(src_shape(bf), dtype, seed=2)]
                            g, t = self.pair(dtype, ga, ta, batch_first=bf, norm_first=nf)
                            self.compare(g, t, ins, dtype, what='eval')
                            g, t = self.pair(dtype, ga, ta, batch_first=bf, norm_first=nf, dropout=0.0)
                            self.compare(g, t, ins, dtype, train=True, what='train')

    def test_masks(self):
        rng = np.random.default_rng(4)
        tm = np.triu(np.ones((T, T), bool), 1)
        mm = rng.random((T, S)) < 0.3
        mm[:, 0] = False
        tk = np.zeros((N, T), bool)
        tk[0, 3] = True
        mk = np.zeros((N, S), bool)
        mk[2, 2:] = True
        for dtype in (np.float32, np.float64):
            for masks in (dict(tgt_mask=tm), dict(memory_mask=mm), dict(tgt_key_padding_mask=tk),
                          dict(memory_key_padding_mask=mk),
                          dict(tgt_mask=np.where(tm, -np.inf, 0).astype(dtype),
                               memory_mask=rand((T, S), dtype, seed=7),
                               tgt_key_padding_mask=tk, memory_key_padding_mask=np.where(mk, -1e4, 0).astype(dtype))):
                for bf in (False, True):
                    with self.subTest(dtype=dtype, bf=bf, masks=sorted(masks)):
                        ins = [rand(tgt_shape(bf), dtype, seed=1), rand(src_shape(bf), dtype, seed=2)]
                        gm = {k: gnn.tensor(v) for k, v in masks.items()}
                        tmk = {k: torch.tensor(v) for k, v in masks.items()}
                        if 'memory_mask' in masks and masks['memory_mask'].dtype != bool and \
                                masks.get('memory_key_padding_mask', np.zeros(1, bool)).dtype != bool:
                            # PyTorch 2 adds a float key padding mask to a float attn_mask; 1.13's
                            # masked_fill with a float mask ignores it: give 1.13 the sum, (N * H, T, S)
                            both = masks['memory_mask'][None] + masks['memory_key_padding_mask'][:, None, :]
                            tmk['memory_mask'] = torch.tensor(np.repeat(both, H, axis=0))
                            del tmk['memory_key_padding_mask']
                        g, t = self.pair(dtype, batch_first=bf, dropout=0.0)
                        self.compare(g, t, ins, dtype, gm, tmk, train=True)
            g, t = self.pair(dtype, dropout=0.0)
            ins = [rand((T, N, E), dtype, seed=1), rand((S, N, E), dtype, seed=2)]
            self.compare(g, t, ins, dtype, dict(tgt_mask=gnn.tensor(tm), tgt_is_causal=True),
                         dict(tgt_mask=torch.tensor(tm)), train=True, what='tgt_is_causal')

    def test_unbatched(self):
        for dtype in (np.float32, np.float64):
            for nf in (False, True):
                g, t = self.pair(dtype, norm_first=nf, dropout=0.0)
                self.compare(g, t, [rand((T, E), dtype, seed=1), rand((S, E), dtype, seed=2)], dtype, train=True)

    def test_repr_and_keys(self):
        for kw in ({}, dict(norm_first=True, batch_first=True, layer_norm_eps=1e-6, dropout=0.2)):
            g = nn.TransformerDecoderLayer(E, H, FF, **kw)
            t = torch.nn.TransformerDecoderLayer(E, H, FF, **kw)
            self.assertEqual(repr(g), repr(t))
            self.assertEqual(list(g.state_dict().keys()), list(t.state_dict().keys()))
        g = nn.TransformerDecoderLayer(E, H, FF, activation=nn.GELU())
        t = torch.nn.TransformerDecoderLayer(E, H, FF, activation=torch.nn.GELU())
        self.assertEqual(repr(g), repr(t))

    def test_errors(self):
        g, _ = self.pair(np.float32)
        x, m = gnn.tensor(rand((T, N, E))), gnn.tensor(rand((S, N, E)))
        cases = [
            ((gnn.tensor(rand((T, N, 6))), m), {}, 'expected tgt with d_model=8 features in its last dimension, '
             'got tgt of shape [4, 3, 6]'),
            ((x, gnn.tensor(rand((S, N, 6)))), {}, 'expected memory with d_model=8 features in its last dimension, '
             'got memory of shape [5, 3, 6]'),
            ((x, gnn.tensor(rand((S, E)))), {}, 'expected tgt and memory both batched (3-D) or both unbatched '
             '(2-D), got tgt of shape [4, 3, 8] and memory of shape [5, 8]'),
            ((x, m), dict(memory_mask=gnn.tensor(np.zeros((T, T), bool))),
             'The shape of the 2D attn_mask is [4, 4], but should be (4, 5)'),
            ((x, m), dict(memory_is_causal=True), 'Need attn_mask if specifying the is_causal hint'),
        ]
        for args, kw, msg in cases:
            with self.subTest(msg=msg):
                with self.assertRaises(Exception) as cm:
                    g(*args, **kw)
                self.assertIn(msg, err(cm.exception))
                self.assertIn('TransformerDecoderLayer', err(cm.exception))


class Decoder(Base):
    def pair(self, dtype, num_layers=2, norm=True, **kw):
        torch.manual_seed(0)
        tl = torch.nn.TransformerDecoderLayer(E, H, FF, **kw)
        t = torch.nn.TransformerDecoder(tl, num_layers, torch.nn.LayerNorm(E) if norm else None).to(tdtype(dtype))
        gl = nn.TransformerDecoderLayer(E, H, FF, **kw, dtype=gdtype(dtype))
        g = nn.TransformerDecoder(gl, num_layers, nn.LayerNorm(E, dtype=gdtype(dtype)) if norm else None)
        load(g, t)
        return g, t

    def test_configs(self):
        tm = np.triu(np.full((T, T), -np.inf), 1)
        mk = np.zeros((N, S), bool)
        mk[2, 2:] = True
        for dtype in (np.float32, np.float64):
            for bf in (False, True):
                for nf in (False, True):
                    for norm in (False, True):
                        with self.subTest(dtype=dtype, bf=bf, nf=nf, norm=norm):
                            ins = [rand(tgt_shape(bf), dtype, seed=1), rand(src_shape(bf), dtype, seed=2)]
                            g, t = self.pair(dtype, norm=norm, batch_first=bf, norm_first=nf)
                            self.compare(g, t, ins, dtype, what='eval')
                            g, t = self.pair(dtype, norm=norm, batch_first=bf, norm_first=nf, dropout=0.0)
                            self.compare(g, t, ins, dtype, train=True, what='train')
                            m = dict(tgt_mask=tm.astype(dtype), memory_key_padding_mask=mk)
                            for hint in (None, True, False):
                                self.compare(g, t, ins, dtype,
                                             dict({k: gnn.tensor(v) for k, v in m.items()}, tgt_is_causal=hint),
                                             {k: torch.tensor(v) for k, v in m.items()}, train=True, what='masks')
            g, t = self.pair(dtype, dropout=0.0)
            self.compare(g, t, [rand((T, E), dtype, seed=1), rand((S, E), dtype, seed=2)], dtype, train=True,
                         what='unbatched')

    def test_clones_and_repr(self):
        layer = nn.TransformerDecoderLayer(E, H, FF)
        g = nn.TransformerDecoder(layer, 2, nn.LayerNorm(E))
        t = torch.nn.TransformerDecoder(torch.nn.TransformerDecoderLayer(E, H, FF), 2, torch.nn.LayerNorm(E))
        self.assertEqual(list(g.state_dict().keys()), list(t.state_dict().keys()))
        self.assertEqual(repr(g), repr(t))
        self.assertIsNot(g.layers[0].multihead_attn.in_proj_weight, g.layers[1].multihead_attn.in_proj_weight)
        np.testing.assert_array_equal(to_np(g.layers[1].multihead_attn.in_proj_weight.detach()),
                                      to_np(layer.multihead_attn.in_proj_weight.detach()))

    def test_errors(self):
        g, _ = self.pair(np.float32)
        with self.assertRaises(Exception) as cm:
            g(gnn.tensor(rand((T, N, E))), gnn.tensor(rand((S, N, 6))))
        self.assertIn('TransformerDecoder: layers.0: TransformerDecoderLayer: expected memory with d_model=8',
                      err(cm.exception))


class FullTransformer(Base):
    def pair(self, dtype, **kw):
        torch.manual_seed(0)
        t = torch.nn.Transformer(E, H, 2, 1, FF, **kw).to(tdtype(dtype))
        g = nn.Transformer(E, H, 2, 1, FF, **kw, dtype=gdtype(dtype))
        load(g, t)
        return g, t

    def test_configs(self):
        tm = np.triu(np.full((T, T), -np.inf), 1)
        kpm = np.zeros((N, S), bool)
        kpm[1, 3:] = True
        for dtype in (np.float32, np.float64):
            for bf in (False, True):
                for nf in (False, True):
                    with self.subTest(dtype=dtype, bf=bf, nf=nf):
                        ins = [rand(src_shape(bf), dtype, seed=2), rand(tgt_shape(bf), dtype, seed=1)]
                        g, t = self.pair(dtype, batch_first=bf, norm_first=nf, activation='gelu')
                        self.compare(g, t, ins, dtype, what='eval')
                        g, t = self.pair(dtype, batch_first=bf, norm_first=nf, dropout=0.0)
                        self.compare(g, t, ins, dtype, train=True, what='train')
                        m = dict(tgt_mask=tm.astype(dtype), src_key_padding_mask=kpm, memory_key_padding_mask=kpm)
                        self.compare(g, t, ins, dtype, {k: gnn.tensor(v) for k, v in m.items()},
                                     {k: torch.tensor(v) for k, v in m.items()}, train=True, what='masks')
            g, t = self.pair(dtype, dropout=0.0)
            self.compare(g, t, [rand((S, E), dtype, seed=2), rand((T, E), dtype, seed=1)], dtype, train=True,
                         what='unbatched')

    def test_keys_init_repr(self):
        g = nn.Transformer(E, H, 2, 1, FF)
        t = torch.nn.Transformer(E, H, 2, 1, FF)
        self.assertEqual(list(g.state_dict().keys()), list(t.state_dict().keys()))
        self.assertEqual(repr(g), repr(t))
        for (n, p) in g.named_parameters():
            v = to_np(p.detach())
            if v.ndim > 1:     # xavier_uniform_: U(-a, a), a = sqrt(6 / (fan_in + fan_out))
                a = np.sqrt(6.0 / (v.shape[0] + v.shape[1]))
                self.assertLessEqual(np.abs(v).max(), a, n)
                self.assertGreater(np.abs(v).max(), a / 2, n)
        self.assertTrue(np.all(to_np(g.encoder.layers[0].self_attn.in_proj_bias.detach()) == 0))
        self.assertTrue(np.all(to_np(g.encoder.norm.weight.detach()) == 1))
        # the layers start from independent initialisations (torch's _reset_parameters after the copies)
        self.assertFalse(np.array_equal(to_np(g.encoder.layers[0].linear1.weight.detach()),
                                        to_np(g.encoder.layers[1].linear1.weight.detach())))
        d = nn.Transformer()
        self.assertEqual(len(d.encoder.layers), 6)
        self.assertEqual(len(d.decoder.layers), 6)
        self.assertEqual(tuple(d.encoder.layers[0].linear1.weight.shape), (2048, 512))
        self.assertEqual(d.encoder.layers[0].self_attn.props.num_heads, 8)

    def test_custom(self):
        enc = nn.TransformerEncoder(nn.TransformerEncoderLayer(E, H, FF), 1)
        dec = nn.TransformerDecoder(nn.TransformerDecoderLayer(E, H, FF), 1)
        g = nn.Transformer(E, H, custom_encoder=enc, custom_decoder=dec)
        t = torch.nn.Transformer(E, H, custom_encoder=torch.nn.TransformerEncoder(
            torch.nn.TransformerEncoderLayer(E, H, FF), 1), custom_decoder=torch.nn.TransformerDecoder(
            torch.nn.TransformerDecoderLayer(E, H, FF), 1))
        self.assertEqual(list(g.state_dict().keys()), list(t.state_dict().keys()))
        self.assertIs(g.encoder, enc)

    def test_mask(self):
        m = nn.Transformer.generate_square_subsequent_mask(4)
        tm = torch.nn.Transformer.generate_square_subsequent_mask(4)
        self.assertEqual(m.dtype, gnn.float32)
        np.testing.assert_array_equal(to_np(m), tm.numpy())
        m = nn.Transformer.generate_square_subsequent_mask(3, dtype=gnn.float64)
        self.assertEqual(m.dtype, gnn.float64)

    def test_errors(self):
        g, _ = self.pair(np.float32)
        cases = [
            ((rand((S, N, E)), rand((T, N + 1, E))), 'the batch number of src and tgt must be equal (src of shape '
             '[5, 3, 8], tgt of shape [4, 4, 8])'),
            ((rand((S, N, E)), rand((T, N, 6))), 'the feature number of src and tgt must be equal to d_model=8 '
             '(src of shape [5, 3, 8], tgt of shape [4, 3, 6])'),
            ((rand((S, N, 6)), rand((T, N, E))), 'the feature number of src and tgt must be equal to d_model'),
        ]
        for args, msg in cases:
            with self.subTest(msg=msg):
                with self.assertRaises(Exception) as cm:
                    g(*[gnn.tensor(a) for a in args])
                self.assertIn(msg, err(cm.exception))
                self.assertIn('Transformer', err(cm.exception))
        gb = nn.Transformer(E, H, 1, 1, FF, batch_first=True)
        with self.assertRaises(Exception) as cm:
            gb(gnn.tensor(rand((N, S, E))), gnn.tensor(rand((N + 1, T, E))))
        self.assertIn('the batch number of src and tgt must be equal', err(cm.exception))


if __name__ == '__main__':
    main()
