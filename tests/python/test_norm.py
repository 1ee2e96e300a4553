#!/usr/bin/python3
"""BatchNorm1d/2d, LayerNorm and GroupNorm against torch.nn: outputs and gradients of input,
weight and bias in train and eval mode, float32 and float64; running statistics and
num_batches_tracked after several training steps; state-dict keys; printed forms."""

from gnntest import Gnn, GLib, np, torch, to_gnn, to_np, rand, ParityTest, main

DTYPES = {np.float32: (Gnn.Dtype.FLOAT32, torch.float32), np.float64: (Gnn.Dtype.FLOAT64, torch.float64)}
TOLS = {np.float32: (1e-4, 1e-5), np.float64: (1e-9, 1e-11)}


def copy_params(gm, tm):
    with Gnn.no_grad():
        for name, p in tm.named_parameters():
            getattr(gm, name).copy_(to_gnn(p.detach().numpy()))


def randomize(tm, seed):
    g = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for p in tm.parameters():
            p.copy_(torch.rand(p.shape, generator=g, dtype=p.dtype) + 0.5)


class NormParity(ParityTest):
    def run_steps(self, gm, tm, shape, dtype, steps, train=True, seed=0, what=''):
        r, a = TOLS[dtype]
        gm.train(train)
        tm.train(train)
        for step in range(steps):
            x = rand(shape, dtype, seed=seed + step)
            tx = torch.from_numpy(x.copy()).requires_grad_(True)
            gx = to_gnn(x, requires_grad=True)
            want = tm(tx)
            got = gm(gx)
            w = what + ' step %d' % step
            self.assertEqual(got.get_dtype(), DTYPES[dtype][0])
            self.assert_close(to_np(got), want.detach().numpy(), r, a, w + ' output')
            up = rand(tuple(want.shape), dtype, seed=seed + 100 + step)
            want.backward(torch.from_numpy(up))
            got.backward(to_gnn(up), False)
            self.assert_close(to_np(gx.get_grad()), tx.grad.numpy(), r, a, w + ' grad of input')
            for name, p in tm.named_parameters():
                self.assert_close(to_np(getattr(gm, name).get_grad()), p.grad.numpy(), r, a * 10,
                                  w + ' grad of ' + name)
                p.grad = None
                getattr(gm, name).set_grad(None)
            for name, b in tm.named_buffers():
                self.assert_close(to_np(getattr(gm, name)), b.numpy(), r, a, w + ' ' + name)

    def check_bn(self, cls, tcls, C, shape, dtype, momentum=0.1, affine=True, track=True, seed=0):
        gdt, tdt = DTYPES[dtype]
        tm = tcls(C, momentum=momentum, affine=affine, track_running_stats=track, dtype=tdt)
        if affine:
            randomize(tm, seed)
        gm = cls(num_features=C, momentum=0.1 if momentum is None else momentum,
                 cumulative_average=momentum is None, affine=affine, track_running_stats=track, dtype=gdt)
        copy_params(gm, tm)
        what = '%s(%d, momentum=%s, affine=%s, track=%s) %s %s' % (
            tcls.__name__, C, momentum, affine, track, shape, np.dtype(dtype).name)
        self.run_steps(gm, tm, shape, dtype, 4, True, seed, what + ' train')
        self.run_steps(gm, tm, shape, dtype, 2, False, seed + 50, what + ' eval')
        if track:
            self.assertEqual(int(to_np(gm.num_batches_tracked)), int(tm.num_batches_tracked))
            self.assertEqual(gm.num_batches_tracked.get_dtype(), Gnn.Dtype.INT64)

    def test_batch_norm1d(self):
        for dtype in DTYPES:
            for momentum in (0.1, 0.5, None):
                self.check_bn(Gnn.BatchNorm1d, torch.nn.BatchNorm1d, 3, (5, 3), dtype, momentum)
                self.check_bn(Gnn.BatchNorm1d, torch.nn.BatchNorm1d, 4, (3, 4, 7), dtype, momentum, seed=1)
            self.check_bn(Gnn.BatchNorm1d, torch.nn.BatchNorm1d, 3, (5, 3), dtype, affine=False, seed=2)
            self.check_bn(Gnn.BatchNorm1d, torch.nn.BatchNorm1d, 3, (5, 3, 2), dtype, track=False, seed=3)

    def test_batch_norm2d(self):
        for dtype in DTYPES:
            for momentum in (0.1, 0.5, None):
                self.check_bn(Gnn.BatchNorm2d, torch.nn.BatchNorm2d, 3, (2, 3, 4, 5), dtype, momentum)
            self.check_bn(Gnn.BatchNorm2d, torch.nn.BatchNorm2d, 2, (1, 2, 3, 3), dtype, affine=False,
                          track=False, seed=4)

    def test_layer_norm(self):
        for dtype in DTYPES:
            gdt, tdt = DTYPES[dtype]
            for ns, shape, affine in (([4], (3, 4), True), ([3, 5], (2, 3, 5), True), ([5], (2, 3, 5), False)):
                tm = torch.nn.LayerNorm(ns, elementwise_affine=affine, dtype=tdt)
                if affine:
                    randomize(tm, 7)
                gm = Gnn.LayerNorm(normalized_shape=GLib.Variant('ax', ns), elementwise_affine=affine, dtype=gdt)
                copy_params(gm, tm)
                what = 'LayerNorm(%s) %s' % (ns, np.dtype(dtype).name)
                self.run_steps(gm, tm, shape, dtype, 1, True, 3, what + ' train')
                self.run_steps(gm, tm, shape, dtype, 1, False, 4, what + ' eval')
                self.assertEqual(repr(gm), repr(tm))

    def test_group_norm(self):
        for dtype in DTYPES:
            gdt, tdt = DTYPES[dtype]
            for G, C, shape, affine in ((2, 4, (3, 4, 5), True), (3, 6, (2, 6, 2, 3), True),
                                        (1, 3, (2, 3), False), (4, 4, (1, 4, 5), True)):
                tm = torch.nn.GroupNorm(G, C, affine=affine, dtype=tdt)
                if affine:
                    randomize(tm, 8)
                gm = Gnn.GroupNorm(num_groups=G, num_channels=C, affine=affine, dtype=gdt)
                copy_params(gm, tm)
                what = 'GroupNorm(%d, %d) %s' % (G, C, np.dtype(dtype).name)
                self.run_steps(gm, tm, shape, dtype, 1, True, 5, what + ' train')
                self.run_steps(gm, tm, shape, dtype, 1, False, 6, what + ' eval')
                self.assertEqual(repr(gm), repr(tm))

    def test_state_dict_keys(self):
        for affine in (True, False):
            for track in (True, False):
                tm = torch.nn.BatchNorm2d(3, affine=affine, track_running_stats=track)
                gm = Gnn.BatchNorm2d(num_features=3, affine=affine, track_running_stats=track)
                self.assertEqual(list(gm.state_dict(None, False).get_keys()), list(tm.state_dict().keys()))
        self.assertEqual(list(Gnn.LayerNorm(normalized_shape=GLib.Variant('ax', [4])).state_dict(None, False)
                              .get_keys()), list(torch.nn.LayerNorm(4).state_dict().keys()))
        self.assertEqual(list(Gnn.GroupNorm(num_groups=2, num_channels=4).state_dict(None, False).get_keys()),
                         list(torch.nn.GroupNorm(2, 4).state_dict().keys()))

    def test_repr(self):
        for kw in ({}, {'momentum': None}, {'momentum': 0.5, 'eps': 1e-3},
                   {'affine': False, 'track_running_stats': False}):
            for cls, tcls in ((Gnn.BatchNorm1d, torch.nn.BatchNorm1d), (Gnn.BatchNorm2d, torch.nn.BatchNorm2d)):
                gkw = dict(kw)
                if 'momentum' in gkw and gkw['momentum'] is None:
                    del gkw['momentum']
                    gkw['cumulative_average'] = True
                self.assertEqual(repr(cls(num_features=3, **gkw)), repr(tcls(3, **kw)))

    def test_reset_and_errors(self):
        gm = Gnn.BatchNorm1d(num_features=2)
        gm(to_gnn(rand((4, 2), np.float32)))
        self.assertEqual(int(to_np(gm.num_batches_tracked)), 1)
        gm.reset_running_stats()
        self.assertEqual(int(to_np(gm.num_batches_tracked)), 0)
        np.testing.assert_array_equal(to_np(gm.running_var), [1, 1])
        with self.assertRaises(GLib.Error) as cm:
            gm(to_gnn(rand((2, 2, 2, 2), np.float32)))
        self.assertIn('BatchNorm1d: expected 2D or 3D input (got 4D input)', str(cm.exception))
        with self.assertRaises(GLib.Error) as cm:
            Gnn.BatchNorm2d(num_features=2)(to_gnn(rand((2, 2, 2), np.float32)))
        self.assertIn('BatchNorm2d: expected 4D input (got 3D input)', str(cm.exception))


if __name__ == '__main__':
    main()
