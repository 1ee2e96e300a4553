#!/usr/bin/python3
"""The simple layers of issue 4 against torch.nn: activations as modules, Identity, Flatten,
Unflatten, Dropout, Dropout2d, Embedding, Bilinear: outputs, gradients with copied weights,
printed forms, and dropout statistics."""

import warnings

from gnntest import Gnn, GLib, np, torch, to_gnn, to_np, rand, TOL, ParityTest, main

DTYPES = {np.float32: (Gnn.Dtype.FLOAT32, torch.float32), np.float64: (Gnn.Dtype.FLOAT64, torch.float64)}


class Activations(ParityTest):
    def test_parity(self):
        cases = [
            (lambda: Gnn.ELU(alpha=0.5), lambda: torch.nn.ELU(alpha=0.5)),
            (lambda: Gnn.GELU(), lambda: torch.nn.GELU()),
            (lambda: Gnn.GELU(approximate='tanh'), lambda: torch.nn.GELU(approximate='tanh')),
            (lambda: Gnn.SiLU(), lambda: torch.nn.SiLU()),
            (lambda: Gnn.Sigmoid(), lambda: torch.nn.Sigmoid()),
            (lambda: Gnn.Tanh(), lambda: torch.nn.Tanh()),
            (lambda: Gnn.Softmax(dim=1), lambda: torch.nn.Softmax(dim=1)),
            (lambda: Gnn.LogSoftmax(dim=-1), lambda: torch.nn.LogSoftmax(dim=-1)),
            (lambda: Gnn.Softmax(), lambda: torch.nn.Softmax()),
        ]
        for dtype in DTYPES:
            for k, (g, t) in enumerate(cases):
                gm, tm = g(), t()
                self.assertEqual(repr_of(gm), repr(tm))
                with warnings.catch_warnings():
                    warnings.simplefilter('ignore')
                    self.check_op(lambda x: gm(x), lambda x: tm(x), [rand((3, 4, 5), dtype, seed=k)],
                                  name=repr(tm))

    def test_softsign(self):
        for k, dtype in enumerate(DTYPES):
            gm, tm = Gnn.Softsign(), torch.nn.Softsign()
            self.assertEqual(repr_of(gm), repr(tm))
            x = rand((3, 4, 5), dtype, seed=k)
            x[0, 0, :3] = (0.0, -1.0, 1.0)
            self.check_op(lambda a: gm(a), lambda a: tm(a), [x], name='Softsign')
        by_name = Gnn.Module.new_from_type_name('GnnSoftsign', [], [])
        self.assertEqual(repr_of(by_name), 'Softsign()')

    def test_set_property(self):
        e = Gnn.ELU()
        self.assertEqual(repr_of(e), 'ELU(alpha=1.0)')
        e.props.alpha = 0.25
        self.assertEqual(repr_of(e), repr(torch.nn.ELU(alpha=0.25)))
        g = Gnn.GELU(approximate='bogus')
        with self.assertRaises(GLib.Error):
            g(to_gnn(rand((2,))))


def repr_of(m):
    return m.to_string()


class Shapes(ParityTest):
    def test_identity_flatten_unflatten(self):
        x = rand((2, 3, 4, 5), np.float64)
        self.assertEqual(repr_of(Gnn.Identity()), repr(torch.nn.Identity()))
        gx = to_gnn(x)
        self.assertIs(Gnn.Identity()(gx), gx)
        for sd, ed in [(1, -1), (0, 2), (2, 3)]:
            gm, tm = Gnn.Flatten(start_dim=sd, end_dim=ed), torch.nn.Flatten(sd, ed)
            self.assertEqual(repr_of(gm), repr(tm))
            self.check_op(lambda a: gm(a), lambda a: tm(a), [x])
        for dim, sizes in [(1, (3, 20)), (-1, (-1, 4)), (2, (20,))]:
            y = rand((2, 60, 20), np.float64)
            gm = Gnn.Unflatten(dim=dim, unflattened_size=GLib.Variant('ax', list(sizes)))
            tm = torch.nn.Unflatten(dim, sizes)
            self.assertEqual(repr_of(gm), repr(tm))
            if dim == 2:
                self.check_op(lambda a: gm(a), lambda a: tm(a), [y])
            else:
                self.check_op(lambda a: gm(a), lambda a: tm(a), [rand((2, 60, 4), np.float64)])
        bad = Gnn.Unflatten(dim=1, unflattened_size=GLib.Variant('ax', [7, 3]))
        with self.assertRaisesRegex(GLib.Error, 'Unflatten'):
            bad(to_gnn(rand((2, 20))))


class Dropouts(ParityTest):
    def test_repr(self):
        self.assertEqual(repr_of(Gnn.Dropout()), repr(torch.nn.Dropout()))
        self.assertEqual(repr_of(Gnn.Dropout(p=0.1)), repr(torch.nn.Dropout(p=0.1)))
        self.assertEqual(repr_of(Gnn.Dropout2d(p=0.25)), repr(torch.nn.Dropout2d(p=0.25)))

    def test_statistics(self):
        n = 200000
        for dtype in DTYPES:
            for p in (0.2, 0.5, 0.9):
                d = Gnn.Dropout(p=p)
                x = to_gnn(np.ones(n, dtype), requires_grad=True)
                y = d(x)
                yv = to_np(y)
                kept = yv != 0
                rate = kept.mean()
                self.assertLess(abs(rate - (1 - p)), 5 * np.sqrt(p * (1 - p) / n))
                np.testing.assert_allclose(yv[kept], 1 / (1 - p), rtol=1e-6)
                up = rand((n,), dtype, seed=3)
                y.backward(to_gnn(up), False)
                np.testing.assert_allclose(to_np(x.get_grad()), up * yv, rtol=1e-6)

    def test_eval_and_edges(self):
        x = to_gnn(rand((4, 5)))
        d = Gnn.Dropout(p=0.5)
        d.eval()
        self.assertIs(d(x), x)
        d.train(True)
        self.assertIs(Gnn.Dropout(p=0.0)(x), x)
        np.testing.assert_array_equal(to_np(Gnn.Dropout(p=1.0)(x)), np.zeros((4, 5), np.float32))

    def test_dropout2d(self):
        x = to_gnn(np.ones((8, 16, 5, 6), np.float64), requires_grad=True)
        d = Gnn.Dropout2d(p=0.5)
        y = to_np(d(x))
        per_channel = y.reshape(8, 16, 30)
        self.assertTrue(np.all((per_channel == 0).all(-1) | (per_channel == 2).all(-1)))
        self.assertTrue(0.2 < (per_channel[:, :, 0] == 0).mean() < 0.8)
        d.eval()
        self.assertIs(d(x), x)
        with self.assertRaisesRegex(GLib.Error, 'Dropout2d'):
            Gnn.Dropout2d()(to_gnn(rand((5,))))


class EmbeddingBilinear(ParityTest):
    def test_embedding(self):
        for dtype, (gdt, tdt) in DTYPES.items():
            for pad in (None, 0, -1):
                torch.manual_seed(0)
                te = torch.nn.Embedding(10, 3, padding_idx=pad, dtype=tdt)
                ge = Gnn.Embedding(num_embeddings=10, embedding_dim=3, dtype=gdt,
                                   padding_idx=Gnn.EMBEDDING_NO_PADDING if pad is None else pad)
                self.assertEqual(repr_of(ge), repr(te))
                if pad is not None:
                    self.assertEqual(ge.props.padding_idx, te.padding_idx)
                    self.assertTrue(np.all(to_np(ge.weight)[te.padding_idx] == 0))
                with Gnn.no_grad():
                    ge.weight.copy_(to_gnn(te.weight.detach().numpy()))
                idx = np.array([[0, 2, 9, 0], [9, 4, 4, 1]], np.int64)
                want = te(torch.from_numpy(idx))
                got = ge(to_gnn(idx))
                self.assert_close(to_np(got), want.detach().numpy(), *TOL[dtype])
                up = rand((2, 4, 3), dtype, seed=5)
                want.backward(torch.from_numpy(up))
                got.backward(to_gnn(up), False)
                self.assert_close(to_np(ge.weight.get_grad()), te.weight.grad.numpy(), *TOL[dtype])
        ge = Gnn.Embedding(num_embeddings=4, embedding_dim=2)
        with self.assertRaisesRegex(GLib.Error, 'Embedding'):
            ge(to_gnn(np.array([1, 4], np.int64)))

    def test_bilinear(self):
        for dtype, (gdt, tdt) in DTYPES.items():
            for bias in (True, False):
                torch.manual_seed(1)
                tb = torch.nn.Bilinear(4, 3, 5, bias=bias, dtype=tdt)
                gb = Gnn.Bilinear(in1_features=4, in2_features=3, out_features=5, bias=bias, dtype=gdt)
                self.assertEqual(repr_of(gb), repr(tb))
                w = to_np(gb.weight)
                self.assertTrue(np.all(np.abs(w) <= 0.5))
                with Gnn.no_grad():
                    gb.weight.copy_(to_gnn(tb.weight.detach().numpy()))
                    if bias:
                        gb.bias.copy_(to_gnn(tb.bias.detach().numpy()))
                self.check_op(lambda a, b: gb(a, b), lambda a, b: tb(a, b),
                              [rand((2, 6, 4), dtype, seed=2), rand((2, 6, 3), dtype, seed=3)],
                              name='Bilinear')
                x1 = rand((2, 4), dtype, seed=4)
                x2 = rand((2, 3), dtype, seed=5)
                got, want = gb(to_gnn(x1), to_gnn(x2)), tb(torch.from_numpy(x1), torch.from_numpy(x2))
                got.backward(to_gnn(np.ones((2, 5), dtype)), False)
                want.backward(torch.ones(2, 5, dtype=tdt))
                self.assert_close(to_np(gb.weight.get_grad()), tb.weight.grad.numpy(), *TOL[dtype])
        gb = Gnn.Bilinear(in1_features=4, in2_features=3, out_features=5)
        with self.assertRaisesRegex(GLib.Error, r'Bilinear.*\[2, 4\].*\[3, 3\]|Bilinear.*\(2, 4\)'):
            gb(to_gnn(rand((2, 4))), to_gnn(rand((3, 3))))


if __name__ == '__main__':
    main()
