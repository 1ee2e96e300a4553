#!/usr/bin/python3
"""A two-layer MLP written from ops (linear or matmul + add, an activation, a squared-error
loss reduced by mean or sum) in gnn and in torch with the same weights and inputs: the loss
and every weight gradient must agree (float32: rel 1e-5 / abs 1e-6; float64: rel 1e-10)."""

from gnntest import Gnn, np, torch, to_gnn, to_torch, TOL, ParityTest, main

N, D_IN, HIDDEN, D_OUT = 16, 20, 32, 5


def make_data(dtype, seed=0):
    rng = np.random.default_rng(seed)
    # torch.nn.Linear's default init: U(-1/sqrt(fan_in), 1/sqrt(fan_in))
    k1, k2 = 1 / np.sqrt(D_IN), 1 / np.sqrt(HIDDEN)
    return {
        'x': rng.standard_normal((N, D_IN)).astype(dtype),
        'y': rng.standard_normal((N, D_OUT)).astype(dtype),
        'w1': rng.uniform(-k1, k1, (HIDDEN, D_IN)).astype(dtype),
        'b1': rng.uniform(-k1, k1, (HIDDEN,)).astype(dtype),
        'w2': rng.uniform(-k2, k2, (D_OUT, HIDDEN)).astype(dtype),
        'b2': rng.uniform(-k2, k2, (D_OUT,)).astype(dtype),
    }


PARAMS = ['w1', 'b1', 'w2', 'b2']

# activation name -> (gnn, torch). relu and tanh are the library's own ops; 'maximum0' is
# relu spelled with maximum (no ties at 0 with these inputs, so the gradients agree).
ACTIVATIONS = {
    'relu': (lambda h: h.relu(), torch.relu),
    'tanh': (lambda h: h.tanh(), torch.tanh),
    'maximum0': (lambda h: h.maximum(Gnn.Tensor.new_zeros([], h.get_dtype(), None)),
                 lambda h: torch.maximum(h, torch.zeros((), dtype=h.dtype))),
    'square': (lambda h: h.mul(h), lambda h: h * h),
}


def gnn_forward(p, x, y, act, reduction, layer):
    if layer == 'linear':
        h = x.linear(p['w1'], p['b1'])
    else:   # the same layer through matmul, a transposed view and a broadcasting add
        h = x.matmul(p['w1'].t()).add(p['b1'], 1.0)
    a = ACTIVATIONS[act][0](h)
    if layer == 'linear':
        out = a.linear(p['w2'], p['b2'])
    else:
        out = a.matmul(p['w2'].t()).add(p['b2'], 1.0)
    sq = out.sub(y, 1.0).pow_scalar(2.0)
    return sq.mean_all() if reduction == 'mean' else sq.sum_all(), out


def torch_forward(p, x, y, act, reduction, layer):
    if layer == 'linear':
        h = torch.nn.functional.linear(x, p['w1'], p['b1'])
    else:
        h = x.matmul(p['w1'].t()) + p['b1']
    a = ACTIVATIONS[act][1](h)
    if layer == 'linear':
        out = torch.nn.functional.linear(a, p['w2'], p['b2'])
    else:
        out = a.matmul(p['w2'].t()) + p['b2']
    sq = (out - y).pow(2)
    return sq.mean() if reduction == 'mean' else sq.sum(), out


class TestMLP(ParityTest):
    def run_mlp(self, dtype, act, reduction='mean', layer='linear', seed=0):
        data = make_data(dtype, seed)
        rtol, atol = TOL[dtype]
        gp = {k: to_gnn(data[k], requires_grad=True) for k in PARAMS}
        tp = {k: to_torch(data[k], requires_grad=True) for k in PARAMS}
        gx, gy = to_gnn(data['x']), to_gnn(data['y'])
        tx, ty = to_torch(data['x']), to_torch(data['y'])

        gloss, gout = gnn_forward(gp, gx, gy, act, reduction, layer)
        tloss, tout = torch_forward(tp, tx, ty, act, reduction, layer)
        self.assertEqual(gloss.get_ndim(), 0)
        self.assertEqual(gloss.get_dtype(), gx.get_dtype())
        self.assertTrue(gloss.get_requires_grad())
        self.assert_close(gout.numpy(), tout.detach().numpy(), rtol, atol, 'output')
        self.assert_close(gloss.numpy(), tloss.detach().numpy(), rtol, atol, 'loss')
        self.assertAlmostEqual(gloss.item(), tloss.item(), delta=atol + rtol * abs(tloss.item()))

        gloss.backward(None, False)
        tloss.backward()
        for k in PARAMS:
            g = gp[k].get_grad()
            self.assertIsNotNone(g, 'no gradient for ' + k)
            self.assertEqual(tuple(g.get_shape()), data[k].shape, k)
            self.assert_close(g.numpy(), tp[k].grad.numpy(), rtol, atol, 'grad of ' + k)
        # inputs that do not require grad get none
        self.assertIsNone(gx.get_grad())
        return gp, tp

    def test_float32(self):
        for act in ACTIVATIONS:
            for reduction in ['mean', 'sum']:
                with self.subTest(activation=act, reduction=reduction):
                    self.run_mlp(np.float32, act, reduction)

    def test_float64(self):
        for act in ACTIVATIONS:
            for reduction in ['mean', 'sum']:
                with self.subTest(activation=act, reduction=reduction):
                    self.run_mlp(np.float64, act, reduction)

    def test_matmul_layers(self):
        for dtype in [np.float32, np.float64]:
            for act in ['maximum0', 'square']:
                with self.subTest(dtype=np.dtype(dtype).name, activation=act):
                    self.run_mlp(dtype, act, 'mean', layer='matmul', seed=3)

    def test_gradients_accumulate_over_steps(self):
        # two backward passes of fresh graphs add up, as in torch without zero_grad
        data = make_data(np.float32, seed=7)
        rtol, atol = TOL[np.float32]
        gp = {k: to_gnn(data[k], requires_grad=True) for k in PARAMS}
        tp = {k: to_torch(data[k], requires_grad=True) for k in PARAMS}
        for _ in range(2):
            gnn_forward(gp, to_gnn(data['x']), to_gnn(data['y']), 'maximum0', 'mean', 'linear')[0].backward(None, False)
            torch_forward(tp, to_torch(data['x']), to_torch(data['y']), 'maximum0', 'mean', 'linear')[0].backward()
        for k in PARAMS:
            self.assert_close(gp[k].get_grad().numpy(), tp[k].grad.numpy(), rtol, atol, 'grad of ' + k)

    def test_sgd_step_matches(self):
        # one plain SGD step done with in-place ops under no_grad, then the next loss agrees
        data = make_data(np.float32, seed=11)
        rtol, atol = TOL[np.float32]
        lr = 0.1
        gp = {k: to_gnn(data[k], requires_grad=True) for k in PARAMS}
        tp = {k: to_torch(data[k], requires_grad=True) for k in PARAMS}
        gx, gy, tx, ty = to_gnn(data['x']), to_gnn(data['y']), to_torch(data['x']), to_torch(data['y'])
        gnn_forward(gp, gx, gy, 'maximum0', 'mean', 'linear')[0].backward(None, False)
        torch_forward(tp, tx, ty, 'maximum0', 'mean', 'linear')[0].backward()
        with Gnn.no_grad():
            for k in PARAMS:
                gp[k].sub_(gp[k].get_grad(), lr)
        with torch.no_grad():
            for k in PARAMS:
                tp[k].sub_(tp[k].grad, alpha=lr)
        for k in PARAMS:
            self.assertTrue(gp[k].is_leaf())
            self.assert_close(gp[k].numpy(), tp[k].detach().numpy(), rtol, atol, 'updated ' + k)
        gl = gnn_forward(gp, gx, gy, 'maximum0', 'mean', 'linear')[0]
        tl = torch_forward(tp, tx, ty, 'maximum0', 'mean', 'linear')[0]
        self.assert_close(gl.numpy(), tl.detach().numpy(), rtol, atol, 'loss after a step')


if __name__ == '__main__':
    main()
