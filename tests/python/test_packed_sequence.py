# torch.nn.utils.rnn and packed input to RNN, LSTM, GRU, against torch 1.13
#
# SPDX-License-Identifier: LGPL-2.1-or-later
import unittest

import numpy as np
import torch

import gnn
from gnn.nn.utils import rnn as grnn
from torch.nn.utils import rnn as trnn


def g(t, requires_grad=False):
    x = gnn.tensor(t.detach().numpy())
    if requires_grad:
        x.requires_grad_(True)
    return x


def close(a, b, dtype):
    tol = dict(rtol=1e-5, atol=1e-6) if dtype == torch.float32 else dict(rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(np.asarray(a.detach().numpy() if hasattr(a, 'detach') else a.numpy()),
                               b.detach().numpy(), **tol)


class TestPacking(unittest.TestCase):
    def test_pack_pad_roundtrip(self):
        for batch_first in (False, True):
            for enforce_sorted, lengths in ((True, [5, 3, 3, 1]), (False, [2, 5, 1, 3])):
                torch.manual_seed(0)
                x = torch.randn(4, 5, 3) if batch_first else torch.randn(5, 4, 3)
                xt = x.clone().requires_grad_(True)
                xg = g(x, True)
                pt = trnn.pack_padded_sequence(xt, lengths, batch_first, enforce_sorted)
                pg = grnn.pack_padded_sequence(xg, lengths, batch_first, enforce_sorted)
                close(pg.data, pt.data, torch.float32)
                self.assertEqual(pg.batch_sizes.tolist(), pt.batch_sizes.tolist())
                if enforce_sorted:
                    self.assertIsNone(pg.sorted_indices)
                else:
                    self.assertEqual(pg.sorted_indices.tolist(), pt.sorted_indices.tolist())
                    self.assertEqual(pg.unsorted_indices.tolist(), pt.unsorted_indices.tolist())
                yt, lt = trnn.pad_packed_sequence(pt, batch_first, padding_value=-1.0, total_length=6)
                yg, lg = grnn.pad_packed_sequence(pg, batch_first, padding_value=-1.0, total_length=6)
                close(yg, yt, torch.float32)
                self.assertEqual(lg.tolist(), lt.tolist())
                w = torch.randn(yt.shape)
                (yt * w).sum().backward()
                (yg * g(w)).sum().backward()
                close(xg.grad, xt.grad, torch.float32)
                data, bs, si, ui = pg
                self.assertIs(data, pg.data)
                self.assertEqual(pg[1].tolist(), bs.tolist())
                self.assertFalse(pg.is_cuda)

    def test_pad_pack_sequence(self):
        seqs = [torch.randn(n, 2) for n in (3, 5, 1)]
        for bf in (False, True):
            close(grnn.pad_sequence([g(s) for s in seqs], bf, 2.5), trnn.pad_sequence(seqs, bf, 2.5), torch.float32)
        pt = trnn.pack_sequence(seqs, enforce_sorted=False)
        pg = grnn.pack_sequence([g(s) for s in seqs], enforce_sorted=False)
        close(pg.data, pt.data, torch.float32)
        for a, b in zip(grnn.unpack_sequence(pg), seqs):
            close(a, b, torch.float32)
        padded = grnn.pad_sequence([g(s) for s in seqs], True)
        for a, b in zip(grnn.unpad_sequence(padded, gnn.tensor([3, 5, 1]), True), seqs):
            close(a, b, torch.float32)

    def test_errors(self):
        x = gnn.zeros(5, 3, 2)
        cases = [(lambda: grnn.pack_padded_sequence(x, [2, 4, 1]), RuntimeError, 'enforce_sorted=False'),
                 (lambda: grnn.pack_padded_sequence(x, [6, 4, 1]), RuntimeError, 'at most'),
                 (lambda: grnn.pack_padded_sequence(x, [4, 2, 0]), RuntimeError, 'greater than 0'),
                 (lambda: grnn.pack_padded_sequence(x, gnn.tensor([[4, 2, 1]])), RuntimeError, '1D'),
                 (lambda: grnn.pack_padded_sequence(x, [4, 2]), RuntimeError, 'batch_size'),
                 (lambda: grnn.pack_sequence([]), RuntimeError, 'empty list'),
                 (lambda: grnn.pad_sequence([]), RuntimeError, 'empty list'),
                 (lambda: grnn.pad_packed_sequence(grnn.pack_padded_sequence(x, [4, 2, 1]), total_length=3),
                  ValueError, 'total_length=3')]
        for fn, cls, text in cases:
            with self.assertRaises(cls) as cm:
                fn()
            self.assertIn(text, getattr(cm.exception, 'message', str(cm.exception)))


class TestPackedRNN(unittest.TestCase):
    def check(self, kind, dtype, batch_first, enforce_sorted, given_state, **kw):
        torch.manual_seed(1)
        lengths = [6, 4, 4, 2, 1] if enforce_sorted else [2, 6, 1, 4, 4]
        tm = getattr(torch.nn, kind)(3, 4, batch_first=batch_first, **kw).to(dtype)
        gm = getattr(gnn.nn, kind)(3, 4, batch_first=batch_first, **kw).to(gnn.float64 if dtype == torch.float64 else gnn.float32)
        gm.load_state_dict({k: g(v) for k, v in tm.state_dict().items()})
        x = torch.randn(5, 6, 3, dtype=dtype) if batch_first else torch.randn(6, 5, 3, dtype=dtype)
        xt = x.clone().requires_grad_(True)
        xg = g(x, True)
        dirs = 2 if kw.get('bidirectional') else 1
        layers = kw.get('num_layers', 1)
        hsize = kw.get('proj_size') or 4
        ht = hg = None
        if given_state:
            h0 = torch.randn(layers * dirs, 5, hsize, dtype=dtype)
            if kind == 'LSTM':
                c0 = torch.randn(layers * dirs, 5, 4, dtype=dtype)
                ht, hg = (h0, c0), (g(h0), g(c0))
            else:
                ht, hg = h0, g(h0)
        ot, st = tm(trnn.pack_padded_sequence(xt, lengths, batch_first, enforce_sorted), ht)
        og, sg = gm(grnn.pack_padded_sequence(xg, lengths, batch_first, enforce_sorted), hg)
        self.assertIsInstance(og, grnn.PackedSequence)
        close(og.data, ot.data, dtype)
        st = st if kind == 'LSTM' else (st,)
        sg = sg if kind == 'LSTM' else (sg,)
        for a, b in zip(sg, st):
            close(a, b, dtype)
        yt, _ = trnn.pad_packed_sequence(ot, batch_first)
        yg, _ = grnn.pad_packed_sequence(og, batch_first)
        close(yg, yt, dtype)
        w = torch.randn(yt.shape, dtype=dtype)
        loss_t = (yt * w).sum() + sum((s * (i + 1.5)).sum() for i, s in enumerate(st))
        loss_g = (yg * g(w)).sum() + sum((s * (i + 1.5)).sum() for i, s in enumerate(sg))
        loss_t.backward()
        loss_g.backward()
        close(xg.grad, xt.grad, dtype)
        gp = dict(gm.named_parameters())
        for name, p in tm.named_parameters():
            close(gp[name].grad, p.grad, dtype)

    def test_matrix(self):
        for dtype in (torch.float32, torch.float64):
            for kind in ('RNN', 'GRU', 'LSTM'):
                for batch_first, enforce_sorted, given in ((False, True, False), (True, False, True)):
                    with self.subTest(kind=kind, dtype=dtype, batch_first=batch_first):
                        self.check(kind, dtype, batch_first, enforce_sorted, given)
                with self.subTest(kind=kind, dtype=dtype, bidirectional=True):
                    self.check(kind, dtype, False, False, True, num_layers=2, bidirectional=True)
            self.check('LSTM', dtype, True, False, True, num_layers=2, bidirectional=True, proj_size=2)
            self.check('LSTM', dtype, False, True, False, proj_size=3)


if __name__ == '__main__':
    unittest.main()
