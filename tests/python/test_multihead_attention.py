"""nn.MultiheadAttention and F.multi_head_attention_forward against torch 1.13 with torch's
weights loaded into gnn's layer (the state-dict keys are torch's): outputs, attention weights,
and the gradients of the inputs and every parameter, in float32 and float64, batch_first both
ways, kdim/vdim, add_bias_kv, add_zero_attn, unbatched input, bool and float masks of shapes
(L, S) and (N * num_heads, L, S), key_padding_mask bool and float, need_weights=False (the
fused path), is_causal (PyTorch 2's hint, checked against 1.13 given the causal mask); and
the errors."""
import numpy as np
import torch

from gnntest import ParityTest, TOL, main, rand, to_np
import gnn
import gnn.nn as nn
import gnn.nn.functional as F

L, S, N, E, H = 4, 5, 2, 6, 3


def err(e):
    return getattr(e, 'message', str(e))


class Parity(ParityTest):
    def pair(self, dtype, **kw):
        tdtype = torch.float64 if dtype == np.float64 else torch.float32
        torch.manual_seed(0)
        t = torch.nn.MultiheadAttention(E, H, **kw).to(tdtype)
        g = nn.MultiheadAttention(E, H, **kw, dtype=gnn.float64 if dtype == np.float64 else gnn.float32)
        self.assertEqual(list(g.state_dict().keys()), list(t.state_dict().keys()))
        g.load_state_dict({k: gnn.tensor(v.detach().numpy()) for k, v in t.state_dict().items()})
        return g, t

    def run_both(self, dtype, kw={}, shapes=None, call_kw={}, masks={}, torch_masks=None):
        rtol, atol = TOL[dtype]
        g, t = self.pair(dtype, **kw)
        kdim, vdim = kw.get('kdim') or E, kw.get('vdim') or E
        bf = kw.get('batch_first', False)
        if shapes is None:
            shapes = [(N, L, E), (N, S, kdim), (N, S, vdim)] if bf else [(L, N, E), (S, N, kdim), (S, N, vdim)]
        arrays = [rand(s, dtype, seed=1 + i) for i, s in enumerate(shapes)]
        gi = [gnn.tensor(a, requires_grad=True) for a in arrays]
        ti = [torch.tensor(a, requires_grad=True) for a in arrays]
        gm = {k: gnn.tensor(v) for k, v in masks.items()}
        tm = {k: torch.tensor(v) for k, v in (masks if torch_masks is None else torch_masks).items()}
        tkw = {k: v for k, v in call_kw.items() if k != 'is_causal'}
        gout, gw = g(*gi, **gm, **call_kw)
        tout, tw = t(*ti, **tm, **tkw)
        self.assertEqual(tuple(gout.shape), tuple(tout.shape))
        self.assert_close(to_np(gout.detach()), tout.detach().numpy(), rtol, atol, 'output')
        if call_kw.get('need_weights', True):
            self.assertEqual(tuple(gw.shape), tuple(tw.shape))
            self.assert_close(to_np(gw.detach()), tw.detach().numpy(), rtol, atol, 'weights')
        else:
            self.assertIsNone(gw)
        w = rand(tuple(tout.shape), dtype, seed=10)
        loss_g = (gout * gnn.tensor(w)).sum()
        loss_t = (tout * torch.tensor(w)).sum()
        if call_kw.get('need_weights', True):
            w2 = rand(tuple(tw.shape), dtype, seed=11)
            loss_g = loss_g + (gw * gnn.tensor(w2)).sum()
            loss_t = loss_t + (tw * torch.tensor(w2)).sum()
        loss_g.backward()
        loss_t.backward()
        for k, (a, b) in enumerate(zip(gi, ti)):
            self.assert_close(to_np(a.grad), b.grad.numpy(), rtol, atol, 'grad of input %d' % k)
        for (n, p), (n2, q) in zip(g.named_parameters(), t.named_parameters()):
            self.assertEqual(n, n2)
            self.assert_close(to_np(p.grad), q.grad.numpy(), rtol, atol, 'grad of %s' % n)

    def test_configs(self):
        for dtype in (np.float32, np.float64):
            for kw in ({}, dict(batch_first=True), dict(kdim=4, vdim=3), dict(add_bias_kv=True),
                       dict(add_zero_attn=True), dict(bias=False), dict(add_bias_kv=True, add_zero_attn=True,
                                                                        batch_first=True)):
                with self.subTest(dtype=dtype, kw=kw):
                    self.run_both(dtype, kw)
                    self.run_both(dtype, kw, call_kw=dict(average_attn_weights=False))
                    self.run_both(dtype, kw, call_kw=dict(need_weights=False))

    def test_unbatched(self):
        for dtype in (np.float32, np.float64):
            self.run_both(dtype, shapes=[(L, E), (S, E), (S, E)])
            self.run_both(dtype, shapes=[(L, E), (S, E), (S, E)], call_kw=dict(need_weights=False),
                          masks=dict(key_padding_mask=np.array([False, True, False, False, True])))

    def test_masks(self):
        rng = np.random.default_rng(3)
        b2 = rng.random((L, S)) < 0.3
        b2[:, 0] = False
        b3 = rng.random((N * H, L, S)) < 0.3
        b3[:, :, 0] = False
        kpm = np.zeros((N, S), bool)
        kpm[1, 3:] = True
        for dtype in (np.float32, np.float64):
            f2 = rand((L, S), dtype, seed=5)
            f3 = rand((N * H, L, S), dtype, seed=6)
            for masks in (dict(attn_mask=b2), dict(attn_mask=b3), dict(attn_mask=f2), dict(attn_mask=f3),
                          dict(key_padding_mask=kpm), dict(key_padding_mask=np.where(kpm, -1e4, 0).astype(dtype)),
                          dict(attn_mask=f2, key_padding_mask=kpm), dict(attn_mask=b3, key_padding_mask=kpm)):
                for nw in (True, False):
                    with self.subTest(dtype=dtype, masks=sorted(masks), nw=nw):
                        self.run_both(dtype, masks=masks, call_kw=dict(need_weights=nw))
                        self.run_both(dtype, dict(add_bias_kv=True, add_zero_attn=True), masks=masks,
                                      call_kw=dict(need_weights=nw))

    def test_is_causal(self):
        causal = np.triu(np.ones((L, L), bool), 1)
        shapes = [(L, N, E)] * 3
        for dtype in (np.float32, np.float64):
            for nw in (True, False):
                self.run_both(dtype, shapes=shapes, masks=dict(attn_mask=causal),
                              call_kw=dict(need_weights=nw, is_causal=True))
        g, _ = self.pair(np.float32)
        x = gnn.tensor(rand((L, N, E)))
        with self.assertRaises(Exception) as cm:
            g(x, x, x, is_causal=True)
        self.assertIn('Need attn_mask if specifying the is_causal hint', err(cm.exception))

    def test_functional(self):
        rtol, atol = TOL[np.float64]
        g, t = self.pair(np.float64)
        arrays = [rand(s, np.float64, seed=i) for i, s in enumerate([(L, N, E), (S, N, E), (S, N, E)])]
        sd = {k: v.detach() for k, v in t.state_dict().items()}
        tout, tw = torch.nn.functional.multi_head_attention_forward(
            *[torch.tensor(a) for a in arrays], E, H, sd['in_proj_weight'], sd['in_proj_bias'], None, None, False,
            0.0, sd['out_proj.weight'], sd['out_proj.bias'], training=False)
        gsd = {k: gnn.tensor(v.numpy()) for k, v in sd.items()}
        gout, gw = F.multi_head_attention_forward(
            *[gnn.tensor(a) for a in arrays], E, H, gsd['in_proj_weight'], gsd['in_proj_bias'], None, None, False,
            0.0, gsd['out_proj.weight'], gsd['out_proj.bias'], training=False)
        self.assert_close(to_np(gout), tout.numpy(), rtol, atol, 'output')
        self.assert_close(to_np(gw), tw.numpy(), rtol, atol, 'weights')

    def test_init_and_repr(self):
        g = nn.MultiheadAttention(E, H)
        t = torch.nn.MultiheadAttention(E, H)
        self.assertEqual(repr(g), repr(t))
        self.assertTrue(np.all(to_np(g.in_proj_bias.detach()) == 0))
        self.assertTrue(np.all(to_np(g.out_proj.bias.detach()) == 0))
        bound = np.sqrt(6.0 / (E + 3 * E))   # xavier_uniform_ of (3E, E)
        w = to_np(g.in_proj_weight.detach())
        self.assertLessEqual(np.abs(w).max(), bound)
        self.assertGreater(np.abs(w).max(), bound / 2)
        g2 = nn.MultiheadAttention(E, H, kdim=4, vdim=3, add_bias_kv=True)
        t2 = torch.nn.MultiheadAttention(E, H, kdim=4, vdim=3, add_bias_kv=True)
        self.assertEqual(list(g2.state_dict().keys()), list(t2.state_dict().keys()))

    def test_errors(self):
        with self.assertRaises(Exception) as cm:   # at construction or, from Python, at first use
            bad = nn.MultiheadAttention(5, 2)
            y = gnn.tensor(rand((L, N, 5)))
            bad(y, y, y)
        self.assertIn('embed_dim must be divisible by num_heads', err(cm.exception))
        g, _ = self.pair(np.float32)
        x = gnn.tensor(rand((L, N, E)))
        cases = [
            ((gnn.tensor(rand((L, N, E, 1))), x, x), {}, 'query should be unbatched 2D or batched 3D'),
            ((x, gnn.tensor(rand((S, E))), gnn.tensor(rand((S, E)))), {}, 'expected `key` and `value` to be 3-D'),
            ((gnn.tensor(rand((L, N, 4))),) * 3, {}, 'was expecting embedding dimension of 6, but got 4'),
            ((x, gnn.tensor(rand((S, N, E))), gnn.tensor(rand((L, N, E)))), {}, 'key shape does not match value'),
            ((x, x, x), dict(attn_mask=gnn.tensor(np.zeros((L, S), bool))), 'The shape of the 2D attn_mask is'),
            ((x, x, x), dict(attn_mask=gnn.tensor(np.zeros((N, L, L), bool))), 'The shape of the 3D attn_mask is'),
            ((x, x, x), dict(key_padding_mask=gnn.tensor(np.zeros((N, S), bool))),
             'expecting key_padding_mask shape of'),
        ]
        for args, kw, msg in cases:
            with self.subTest(msg=msg):
                with self.assertRaises(Exception) as cm:
                    g(*args, **kw)
                self.assertIn(msg, err(cm.exception))
                self.assertIn('MultiheadAttention', err(cm.exception))


if __name__ == '__main__':
    main()
