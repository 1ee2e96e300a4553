"""nn.RNN, nn.LSTM and nn.GRU against torch 1.13 with torch's weights loaded into gnn's layer
(the state-dict keys are torch's): outputs, final states, and the gradients of the input, the
initial states and every parameter, in float32 and float64, batch_first both ways,
bidirectional, two layers, proj_size, unbatched input; and torch's errors. Likewise nn.RNNCell,
nn.LSTMCell and nn.GRUCell (batched and unbatched, the state given or zero)."""
import numpy as np
import torch

from gnntest import ParityTest, TOL, main, rand, to_np
import gnn
import gnn.nn as nn

CONFIGS = [
    ('RNN', {}), ('RNN', dict(nonlinearity='relu', bias=False)),
    ('RNN', dict(num_layers=2, bidirectional=True)),
    ('GRU', {}), ('GRU', dict(num_layers=2, bidirectional=True, batch_first=True)),
    ('LSTM', {}), ('LSTM', dict(num_layers=2, bidirectional=True)),
    ('LSTM', dict(batch_first=True, proj_size=2)), ('LSTM', dict(num_layers=2, proj_size=3, bidirectional=True)),
]
T, N, I, H = 4, 2, 3, 5


def states_of(out, lstm):
    y, h = out
    return [y] + (list(h) if lstm else [h])


class Recurrent(ParityTest):
    """What the parity tests of the layers and the cells share: a gnn module with torch's
    weights, and the comparison of outputs and gradients."""
    def pair(self, name, kw, dtype):
        tdtype = torch.float64 if dtype == np.float64 else torch.float32
        torch.manual_seed(0)
        t = getattr(torch.nn, name)(I, H, **kw).to(tdtype)
        g = getattr(nn, name)(I, H, **kw, dtype=gnn.float64 if dtype == np.float64 else gnn.float32)
        self.assertEqual(list(g.state_dict().keys()), list(t.state_dict().keys()))
        g.load_state_dict({k: gnn.tensor(v.detach().numpy()) for k, v in t.state_dict().items()})
        return g, t

    def compare(self, g, t, gi, ti, gout, tout, rtol, atol, what):
        """The outputs gout of g (inputs gi) against torch's tout, then the gradients of the
        inputs and of every parameter of a weighted sum of the outputs."""
        dtype = to_np(gout[0].detach()).dtype
        loss_g = loss_t = 0
        for k, (a, b) in enumerate(zip(gout, tout)):
            self.assertEqual(tuple(a.shape), tuple(b.shape), what)
            self.assert_close(to_np(a.detach()), b.detach().numpy(), rtol, atol, '%s output %d' % (what, k))
            w = rand(tuple(b.shape), dtype, seed=10 + k)
            loss_g = loss_g + (a * gnn.tensor(w)).sum()
            loss_t = loss_t + (b * torch.tensor(w)).sum()
        loss_g.backward()
        loss_t.backward()
        for k, (a, b) in enumerate(zip(gi, ti)):
            self.assert_close(to_np(a.grad), b.grad.numpy(), rtol, atol, '%s grad of input %d' % (what, k))
        for (n, p), (n2, q) in zip(g.named_parameters(), t.named_parameters()):
            self.assertEqual(n, n2)
            self.assert_close(to_np(p.grad), q.grad.numpy(), rtol, atol, '%s grad of %s' % (what, n))


class Parity(Recurrent):
    def run_both(self, name, kw, dtype, shape, with_state):
        g, t = self.pair(name, kw, dtype)
        lstm = name == 'LSTM'
        dirs = 2 if kw.get('bidirectional') else 1
        layers = kw.get('num_layers', 1)
        hsize = kw.get('proj_size', 0) or H
        unbatched = len(shape) == 2
        lead = (layers * dirs,) if unbatched else (layers * dirs, N)
        arrays = [rand(shape, dtype, seed=1)]
        if with_state:
            arrays.append(rand(lead + (hsize,), dtype, seed=2))
            if lstm:
                arrays.append(rand(lead + (H,), dtype, seed=3))
        gi = [gnn.tensor(a, requires_grad=True) for a in arrays]
        ti = [torch.tensor(a, requires_grad=True) for a in arrays]

        def call(m, xs):
            if not with_state:
                return m(xs[0])
            return m(xs[0], (xs[1], xs[2]) if lstm else xs[1])
        gout = states_of(call(g, gi), lstm)
        tout = states_of(call(t, ti), lstm)
        rtol, atol = TOL[np.dtype(dtype).type]
        rtol, atol = rtol * 10, atol * 10
        what = '%s %s %s %s' % (name, kw, np.dtype(dtype).name, shape)
        self.compare(g, t, gi, ti, gout, tout, rtol, atol, what)

    def test_parity(self):
        for name, kw in CONFIGS:
            for dtype in (np.float32, np.float64):
                shape = (N, T, I) if kw.get('batch_first') else (T, N, I)
                for with_state in (False, True):
                    with self.subTest(name=name, kw=kw, dtype=dtype, state=with_state):
                        self.run_both(name, kw, dtype, shape, with_state)

    def test_unbatched(self):
        for name, kw in (('RNN', {}), ('GRU', dict(bidirectional=True)), ('LSTM', dict(num_layers=2))):
            for with_state in (False, True):
                with self.subTest(name=name, state=with_state):
                    self.run_both(name, kw, np.float64, (T, I), with_state)

    def test_dropout_between_layers(self):
        g = nn.LSTM(I, H, num_layers=2, dropout=0.5)
        x = gnn.tensor(rand((T, N, I)))
        g.eval()
        a = to_np(g(x)[0])
        np.testing.assert_array_equal(a, to_np(g(x)[0]))
        g.train()
        gnn.manual_seed(1)
        b = to_np(g(x)[0])
        self.assertGreater(np.abs(a - b).max(), 1e-4)

    def test_init_and_repr(self):
        g = nn.GRU(I, 16, num_layers=2, bidirectional=True, dropout=0.25)
        self.assertEqual(repr(g), repr(torch.nn.GRU(I, 16, num_layers=2, bidirectional=True, dropout=0.25)))
        for name, p in g.named_parameters():
            v = to_np(p)
            self.assertLessEqual(np.abs(v).max(), 0.25, name)
            self.assertGreater(np.abs(v).max(), 0.2, name)
        self.assertIsNone(g.flatten_parameters())

    def test_errors(self):
        cases = [
            (lambda: nn.LSTM(I, H)(gnn.ones(2, 3, 4, I)), 'LSTM: Expected input to be 2-D or 3-D but received 4-D tensor'),
            (lambda: nn.GRU(I, H)(gnn.ones(T, N, I + 1)),
             'GRU: input.size(-1) must be equal to input_size. Expected 3, got 4'),
            (lambda: nn.RNN(I, H, 2)(gnn.ones(T, N, I), gnn.zeros(1, N, H)),
             'RNN: Expected hidden size (2, 2, 5), got [1, 2, 5]'),
            (lambda: nn.LSTM(I, H)(gnn.ones(T, N, I), (gnn.zeros(1, N, H), gnn.zeros(1, 3, H))),
             'LSTM: Expected hidden[1] size (1, 2, 5), got [1, 3, 5]'),
            (lambda: nn.GRU(I, H)(gnn.ones(T, I), gnn.zeros(1, N, H)),
             'GRU: For unbatched 2-D input, hx should also be 2-D but got 3D tensor'),
            (lambda: nn.LSTM(I, H, proj_size=H)(gnn.ones(T, N, I)), 'proj_size has to be smaller than hidden_size'),
            (lambda: nn.GRU(I, H, proj_size=2)(gnn.ones(T, N, I)), 'proj_size argument is only supported for LSTM'),
            (lambda: nn.RNN(I, H, nonlinearity='gelu')(gnn.ones(T, N, I)), "Unknown nonlinearity 'gelu'"),
            (lambda: nn.RNN(I, H, dropout=1.5)(gnn.ones(T, N, I)), 'dropout should be a number in range [0, 1]'),
        ]
        # (a layer checks its arguments where it is completed: at its first use from Python)
        for fn, words in cases:
            with self.subTest(words=words):
                with self.assertRaises(Exception) as e:
                    fn()
                self.assertIn(words, str(e.exception))


CELL_CONFIGS = [('RNNCell', {}), ('RNNCell', dict(nonlinearity='relu', bias=False)), ('LSTMCell', {}),
                ('LSTMCell', dict(bias=False)), ('GRUCell', {}), ('GRUCell', dict(bias=False))]


class CellParity(Recurrent):
    def run_both(self, name, kw, dtype, shape, with_state):
        g, t = self.pair(name, kw, dtype)
        lstm = name == 'LSTMCell'
        arrays = [rand(shape, dtype, seed=1)]
        if with_state:
            arrays += [rand(shape[:-1] + (H,), dtype, seed=2 + k) for k in range(2 if lstm else 1)]
        gi = [gnn.tensor(a, requires_grad=True) for a in arrays]
        ti = [torch.tensor(a, requires_grad=True) for a in arrays]

        def call(m, xs):
            out = m(xs[0]) if not with_state else m(xs[0], tuple(xs[1:]) if lstm else xs[1])
            return list(out) if lstm else [out]
        gout, tout = call(g, gi), call(t, ti)
        rtol, atol = TOL[np.dtype(dtype).type]
        what = '%s %s %s %s' % (name, kw, np.dtype(dtype).name, shape)
        self.compare(g, t, gi, ti, gout, tout, rtol, atol, what)

    def test_parity(self):
        for name, kw in CELL_CONFIGS:
            for dtype in (np.float32, np.float64):
                for shape in ((N, I), (I,)):
                    for with_state in (False, True):
                        with self.subTest(name=name, kw=kw, dtype=dtype, shape=shape, state=with_state):
                            self.run_both(name, kw, dtype, shape, with_state)

    def test_layer_step_is_the_cell(self):
        # one step of a one-layer LSTM is its cell with the same weights
        lstm = nn.LSTM(I, H)
        cell = nn.LSTMCell(I, H)
        cell.load_state_dict({k[:-3]: v for k, v in lstm.state_dict().items()})
        x = gnn.tensor(rand((1, N, I)))
        y, (h, c) = lstm(x)
        h1, c1 = cell(x[0])
        np.testing.assert_allclose(to_np(h[0]), to_np(h1), rtol=1e-6, atol=1e-7)
        np.testing.assert_allclose(to_np(c[0]), to_np(c1), rtol=1e-6, atol=1e-7)

    def test_init_and_repr(self):
        for name, kw in CELL_CONFIGS + [('RNNCell', dict(nonlinearity='relu'))]:
            g = getattr(nn, name)(I, 16, **kw)
            self.assertEqual(repr(g), repr(getattr(torch.nn, name)(I, 16, **kw)))
            for pname, p in g.named_parameters():
                v = to_np(p)
                self.assertLessEqual(np.abs(v).max(), 0.25, pname)
                self.assertGreater(np.abs(v).max(), 0.2, pname)
        self.assertEqual(nn.GRUCell(I, H).props.hidden_size, H)
        self.assertEqual(nn.RNNCell(I, H, nonlinearity="relu").props.nonlinearity, "relu")

    def test_errors(self):
        cases = [
            (lambda: nn.RNNCell(I, H)(gnn.ones(2, 1, I)), 'RNNCell: Expected input to be 1-D or 2-D but received 3-D tensor'),
            (lambda: nn.GRUCell(I, H)(gnn.ones(2, I + 1)), 'GRUCell: input has inconsistent input_size: got 4 expected 3'),
            (lambda: nn.RNNCell(I, H)(gnn.ones(2, I), gnn.ones(3, H)),
             "RNNCell: Input batch size 2 doesn't match hidden0 batch size 3"),
            (lambda: nn.LSTMCell(I, H)(gnn.ones(2, I), (gnn.ones(2, H), gnn.ones(2, 4))),
             'LSTMCell: hidden0 has inconsistent hidden_size: got 4, expected 5'),
            (lambda: nn.GRUCell(I, H)(gnn.ones(I), gnn.ones(2, H)),
             'GRUCell: For unbatched 1-D input, hx should also be 1-D but got 2D tensor'),
            (lambda: nn.RNNCell(I, H, nonlinearity='gelu')(gnn.ones(I)), 'RNNCell: Unknown nonlinearity: gelu'),
        ]
        for fn, words in cases:
            with self.subTest(words=words):
                with self.assertRaises(Exception) as e:
                    fn()
                self.assertIn(words, str(e.exception))


class DoubleBackward(Recurrent):
    """Second derivatives through the layers (the fused LSTM and GRU layers recompute their
    steps with composed ops when the backward records a graph): a gradient penalty, the
    gradient of ||d out / d x||^2 with respect to every parameter, against torch 1.13; and a
    float64 check of those second derivatives against central differences of gnn's own first
    derivatives. Also: a weight changed in place between forward and backward is refused."""
    CASES = [('RNN', {}), ('LSTM', {}), ('GRU', {}), ('LSTM', dict(bidirectional=True, num_layers=2)),
             ('GRU', dict(bidirectional=True, batch_first=True)), ('LSTM', dict(proj_size=2))]

    def penalty(self, lib, m, x, dtype):
        y = m(x)[0]
        v = lib.tensor(rand(tuple(y.shape), dtype, seed=5))
        (gx,) = lib.autograd.grad((y * v).sum(), x, create_graph=True)
        return (gx * gx).sum()

    def test_gradient_penalty(self):
        for name, kw in self.CASES:
            for dtype in (np.float32, np.float64):
                with self.subTest(name=name, kw=kw, dtype=dtype):
                    g, t = self.pair(name, kw, dtype)
                    shape = (N, T, I) if kw.get('batch_first') else (T, N, I)
                    a = rand(shape, dtype, seed=1)
                    gx, tx = gnn.tensor(a, requires_grad=True), torch.tensor(a, requires_grad=True)
                    pg, pt = self.penalty(gnn, g, gx, dtype), self.penalty(torch, t, tx, dtype)
                    rtol, atol = TOL[np.dtype(dtype).type]
                    # second derivatives sum longer chains of products: ten times the usual tolerance
                    rtol, atol = rtol * 10, atol * 10
                    self.assert_close(to_np(pg.detach()), pt.detach().numpy(), rtol, atol, 'penalty')
                    pg.backward()
                    pt.backward()
                    self.assert_close(to_np(gx.grad), tx.grad.numpy(), rtol, atol, 'grad of x')
                    for (n, p), (_, q) in zip(g.named_parameters(), t.named_parameters()):
                        self.assert_close(to_np(p.grad), q.grad.numpy(), rtol, atol, 'grad of ' + n)

    def test_gradient_penalty_packed(self):
        """The same penalty over a packed sequence of ragged lengths, sorted or not."""
        from gnn.nn.utils import rnn as grnn
        lengths = [4, 2, 3]
        for name, kw in (('LSTM', dict(bidirectional=True)), ('GRU', {}), ('RNN', {})):
            for enforce_sorted in (False, True):
                with self.subTest(name=name, enforce_sorted=enforce_sorted):
                    g, t = self.pair(name, kw, np.float64)
                    lens = sorted(lengths, reverse=True) if enforce_sorted else lengths
                    a = rand((T, len(lens), I), np.float64, seed=1)
                    gx, tx = gnn.tensor(a, requires_grad=True), torch.tensor(a, requires_grad=True)
                    pens = []
                    for lib, pack, m, x in ((gnn, grnn, g, gx), (torch, torch.nn.utils.rnn, t, tx)):
                        y = m(pack.pack_padded_sequence(x, lens, enforce_sorted=enforce_sorted))[0].data
                        v = lib.tensor(rand(tuple(y.shape), np.float64, seed=5))
                        (gr,) = lib.autograd.grad((y * v).sum(), x, create_graph=True)
                        pens.append((gr * gr).sum())
                    self.assert_close(to_np(pens[0].detach()), pens[1].detach().numpy(), 1e-9, 1e-11, 'penalty')
                    pens[0].backward()
                    pens[1].backward()
                    for (n, p), (_, q) in zip(g.named_parameters(), t.named_parameters()):
                        self.assert_close(to_np(p.grad), q.grad.numpy(), 1e-9, 1e-11, 'grad of ' + n)

    def test_gradgradcheck(self):
        """d/dW_hh of <d<y, v>/dx, u> by double backward against central differences of the
        first derivative, every entry of weight_hh_l0, float64."""
        for name in ('RNN', 'LSTM', 'GRU'):
            with self.subTest(name=name):
                g, _ = self.pair(name, {}, np.float64)
                a = rand((3, 2, I), np.float64, seed=1)
                v = gnn.tensor(rand((3, 2, H), np.float64, seed=5))
                u = gnn.tensor(rand((3, 2, I), np.float64, seed=6))
                w = g.weight_hh_l0

                def first(create_graph):
                    x = gnn.tensor(a, requires_grad=True)
                    (gx,) = gnn.autograd.grad((g(x)[0] * v).sum(), x, create_graph=create_graph)
                    return (gx * u).sum()
                (analytic,) = gnn.autograd.grad(first(True), w)
                base = to_np(w.detach()).copy()
                numeric = np.zeros_like(base)
                eps = 1e-6
                with gnn.no_grad():
                    for idx in np.ndindex(base.shape):
                        vals = []
                        for sign in (1, -1):
                            b = base.copy()
                            b[idx] += sign * eps
                            w.copy_(gnn.tensor(b))
                            with gnn.enable_grad():
                                vals.append(float(to_np(first(False).detach())))
                        numeric[idx] = (vals[0] - vals[1]) / (2 * eps)
                    w.copy_(gnn.tensor(base))
                self.assert_close(to_np(analytic), numeric, 1e-5, 1e-7, name + ' gradgradcheck')

    def test_weight_changed_in_place(self):
        """As torch: W_hh (and h0) are needed by the backward and checked; a bias, and W_ih of
        an input that needs no gradient, are not."""
        for name in ('RNN', 'LSTM', 'GRU'):
            for key in ('weight_hh_l0', 'weight_ih_l0', 'bias_hh_l0', 'bias_ih_l0'):
                for x_grad in (False, True):
                    if key == 'weight_ih_l0' and not x_grad:
                        # gnn's linear (AddmmBackward0) saves its weight even when the input
                        # needs no gradient, torch's does not: a difference of linear, not of
                        # the recurrent layers
                        continue
                    with self.subTest(name=name, key=key, x_grad=x_grad):
                        g, t = self.pair(name, {}, np.float32)
                        a = rand((T, N, I), np.float32, seed=1)
                        raised = []
                        for m, lib in ((g, gnn), (t, torch)):
                            y = m(lib.tensor(a, requires_grad=x_grad))[0].sum()
                            with lib.no_grad():
                                getattr(m, key).mul_(2)
                            try:
                                y.backward()
                                raised.append(None)
                            except Exception as e:  # gnn raises GLib.Error, torch RuntimeError
                                raised.append(str(e))
                        self.assertEqual(raised[0] is None, raised[1] is None, raised)
                        if raised[1] is not None:
                            self.assertIn('modified by an inplace operation', raised[0])
                            self.assertIn('modified by an inplace operation', raised[1])

if __name__ == '__main__':
    main()
