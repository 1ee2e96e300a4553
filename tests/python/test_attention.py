"""F.scaled_dot_product_attention (PyTorch 2's signature; torch 1.13 has none): against the
composed formula in torch 1.13 on 4-d inputs with masks broadcast over the batch dims, both
mask kinds, is_causal and scale; gradients; a causal call never reading a later position;
dropout; and the errors. The op-spec rows (op_specs/attention.py) check the small cases."""
import math

import numpy as np
import torch

from gnntest import ParityTest, TOL, main, to_np
import gnn
import gnn.nn.functional as F


def torch_sdpa(q, k, v, attn_mask=None, is_causal=False, scale=None):
    L, S = q.shape[-2], k.shape[-2]
    s = q @ k.transpose(-2, -1) * (scale if scale is not None else 1 / math.sqrt(q.shape[-1]))
    if is_causal:
        s = s.masked_fill(~torch.ones(L, S, dtype=torch.bool).tril(), float('-inf'))
    if attn_mask is not None:
        s = s.masked_fill(~attn_mask, float('-inf')) if attn_mask.dtype == torch.bool else s + attn_mask
    return torch.softmax(s, -1) @ v


class Sdpa(ParityTest):
    def inputs(self, dtype, shapes, seed=0):
        rng = np.random.default_rng(seed)
        arrays = [rng.uniform(-1, 1, size=s).astype(dtype) for s in shapes]
        g = [gnn.tensor(a).requires_grad_(True) for a in arrays]
        t = [torch.from_numpy(a.copy()).requires_grad_(True) for a in arrays]
        return g, t

    def check(self, dtype, mask=None, **kw):
        (gq, gk, gv), (tq, tk, tv) = self.inputs(dtype, [(2, 3, 5, 4), (2, 3, 7, 4), (2, 3, 7, 6)])
        gm = tm = None
        if mask is not None:
            tm = torch.from_numpy(mask if mask.dtype == np.bool_ else mask.astype(dtype))
            gm = gnn.tensor(mask if mask.dtype == np.bool_ else mask.astype(dtype))
        g = F.scaled_dot_product_attention(gq, gk, gv, gm, **kw)
        t = torch_sdpa(tq, tk, tv, tm, **kw)
        rtol, atol = TOL[dtype]
        self.assert_close(to_np(g), t.detach().numpy(), rtol, atol, 'output')
        w = np.random.default_rng(5).uniform(-1, 1, size=tuple(t.shape)).astype(dtype)
        (g * gnn.tensor(w)).sum().backward()
        (t * torch.from_numpy(w)).sum().backward()
        for name, a, b in (('q', gq, tq), ('k', gk, tk), ('v', gv, tv)):
            self.assert_close(to_np(a.grad), b.grad.numpy(), rtol, atol, 'grad of ' + name)
        return g

    def test_parity(self):
        rng = np.random.default_rng(3)
        bool_mask = rng.uniform(size=(3, 1, 7)) > 0.3
        bool_mask[..., 0] = True   # no row wholly masked out
        float_mask = rng.uniform(-1, 1, size=(5, 7))
        for dtype in (np.float32, np.float64):
            with self.subTest(dtype=dtype):
                g = self.check(dtype)
                self.assertEqual(g.grad_fn.name(), 'ScaledDotProductAttentionBackward0')
                self.check(dtype, bool_mask)
                self.check(dtype, float_mask)
                self.check(dtype, is_causal=True)
                self.check(dtype, scale=0.25)
                self.check(dtype, float_mask, scale=2.0)

    def test_causal_never_reads_the_future(self):
        q = gnn.tensor(np.ones((1, 4, 2)))
        k = np.ones((1, 4, 2))
        v = np.arange(8.0).reshape(1, 4, 2)
        k[0, 3] = np.nan
        v[0, 2:] = np.nan
        out = to_np(F.scaled_dot_product_attention(q, gnn.tensor(k), gnn.tensor(v), is_causal=True))
        self.assertTrue(np.isfinite(out[0, :2]).all())
        self.assertTrue(np.isnan(out[0, 2:]).all())
        np.testing.assert_allclose(out[0, 1], [1.0, 2.0])   # the mean of values 0 and 1

    def test_dropout(self):
        gnn.manual_seed(0)
        q, k, v = (gnn.tensor(np.random.default_rng(i).uniform(-1, 1, size=(2, 6, 3))) for i in range(3))
        plain = to_np(F.scaled_dot_product_attention(q, k, v))
        dropped = to_np(F.scaled_dot_product_attention(q, k, v, dropout_p=0.5))
        self.assertEqual(dropped.shape, plain.shape)
        self.assertFalse(np.allclose(dropped, plain))

    def test_errors(self):
        q = gnn.zeros(2, 3, 4)
        with self.assertRaises(RuntimeError) as cm:
            F.scaled_dot_product_attention(q, gnn.zeros(2, 5, 3), gnn.zeros(2, 5, 2))
        self.assertIn('same embedding size E', str(cm.exception))
        with self.assertRaises(RuntimeError) as cm:
            F.scaled_dot_product_attention(q, gnn.zeros(2, 5, 4), gnn.zeros(2, 5, 2), gnn.zeros(3, 4))
        self.assertIn('attn_mask of shape [3, 4]', str(cm.exception))
        with self.assertRaises(RuntimeError) as cm:
            F.scaled_dot_product_attention(q, q, q, gnn.zeros(3, 3), is_causal=True)
        self.assertIn('is_causal', str(cm.exception))
        with self.assertRaises(ValueError):
            F.scaled_dot_product_attention(q, q, q, scale=0.0)


if __name__ == '__main__':
    main()
