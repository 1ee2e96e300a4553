#!/usr/bin/python3
"""The padding layers against torch.nn: ConstantPad1d/2d/3d, ZeroPad2d, ReflectionPad1d/2d/3d
and ReplicationPad1d/2d/3d built with torch's arguments (an int or a tuple): printed forms,
outputs and gradients, batched and unbatched, and the errors of pads the input cannot take;
and Conv1d/Conv2d's padding_mode ('reflect', 'replicate', 'circular'), which pads through the
same op, against torch with copied weights."""

from gnntest import Gnn, GLib, np, torch, rand, to_gnn, ParityTest, main

# (layer name, constructor arguments, input shape)
CASES = [
    ('ConstantPad1d', (2, 3.5), (2, 3, 4)),
    ('ConstantPad1d', ((1, -2), -1.0), (3, 4)),
    ('ConstantPad2d', ((1, 0, 2, 1), 0.5), (2, 2, 3, 4)),
    ('ConstantPad3d', (1, 0.0), (1, 2, 2, 3)),
    ('ZeroPad2d', (2,), (1, 3, 2)),
    ('ZeroPad2d', ((1, 0, 2, 0),), (2, 1, 3, 3)),
    ('ReflectionPad1d', (2,), (2, 3, 4)),
    ('ReflectionPad1d', ((3, 1),), (3, 4)),
    ('ReflectionPad2d', ((1, 0, 2, 1),), (2, 1, 3, 4)),
    ('ReflectionPad2d', (1,), (2, 3, 4)),
    ('ReflectionPad3d', (1,), (1, 2, 2, 3, 3)),
    ('ReplicationPad1d', ((1, 2),), (2, 3, 4)),
    ('ReplicationPad2d', (2,), (1, 2, 3, 2)),
    ('ReplicationPad3d', ((1, 0, 0, 2, 1, 1),), (2, 2, 3, 2)),
]


class PadLayers(ParityTest):
    def test_parity(self):
        for k, (name, args, shape) in enumerate(CASES):
            gm, tm = getattr(Gnn, name)(*args), getattr(torch.nn, name)(*args)
            self.assertEqual(gm.to_string(), repr(tm).replace('value=1)', 'value=1.0)'))
            for dtype in (np.float32, np.float64):
                self.check_op(lambda x: gm(x), lambda x: tm(x), [rand(shape, dtype, seed=k)],
                              name='%s%r' % (name, args))

    def test_keywords_and_errors(self):
        m = Gnn.ConstantPad2d(padding=(1, 2, 0, 1), value=-2.0)
        self.assertEqual(m.to_string(), 'ConstantPad2d(padding=(1, 2, 0, 1), value=-2.0)')
        self.assertEqual(tuple(m(Gnn.tensor(np.zeros((1, 2, 2), np.float32))).shape), (1, 3, 5))
        # reflection by as much as the size: torch's message names the padding and the input
        with self.assertRaises(GLib.Error) as ctx:
            Gnn.ReflectionPad1d(4)(Gnn.tensor(np.zeros((2, 3, 4), np.float32)))
        self.assertIn('ReflectionPad1d', ctx.exception.message)
        self.assertIn('padding (4, 4) at dimension 2 of input [2, 3, 4]', ctx.exception.message)
        with self.assertRaises(GLib.Error) as ctx:
            Gnn.ReplicationPad2d(1)(Gnn.tensor(np.zeros((2, 2, 2, 2, 2), np.float32)))
        self.assertIn('Only 2D, 3D, 4D, 5D padding', ctx.exception.message)


# (layer, constructor keywords, input shape)
CONV_CASES = [
    ('Conv2d', dict(in_channels=2, out_channels=3, kernel_size=3, padding=1, padding_mode='reflect'), (2, 2, 4, 5)),
    ('Conv2d', dict(in_channels=2, out_channels=2, kernel_size=(2, 3), padding=(1, 2), stride=2,
                    padding_mode='replicate'), (1, 2, 4, 4)),
    ('Conv2d', dict(in_channels=1, out_channels=2, kernel_size=3, padding=1, dilation=(1, 2),
                    padding_mode='circular', bias=False), (2, 1, 4, 6)),
    ('Conv2d', dict(in_channels=2, out_channels=2, kernel_size=(3, 4), padding='same', padding_mode='reflect'),
     (2, 2, 5, 5)),
    ('Conv2d', dict(in_channels=2, out_channels=2, kernel_size=3, padding=1, padding_mode='replicate'), (2, 4, 4)),
    ('Conv1d', dict(in_channels=2, out_channels=3, kernel_size=3, padding=2, padding_mode='circular'), (2, 2, 5)),
    ('Conv1d', dict(in_channels=2, out_channels=2, kernel_size=4, padding='same', dilation=2,
                    padding_mode='replicate'), (1, 2, 7)),
    ('Conv1d', dict(in_channels=2, out_channels=2, kernel_size=3, padding=1, padding_mode='reflect'), (2, 6)),
]


class ConvPaddingMode(ParityTest):
    def test_parity(self):
        for k, (name, kw, shape) in enumerate(CONV_CASES):
            for dtype in (np.float32, np.float64):
                torch.manual_seed(k)
                tm = getattr(torch.nn, name)(**kw).to(torch.float64 if dtype == np.float64 else torch.float32)
                gm = getattr(Gnn, name)(**kw, dtype=Gnn.Dtype.FLOAT64 if dtype == np.float64 else Gnn.Dtype.FLOAT32)
                self.assertEqual(gm.to_string(), repr(tm))
                with Gnn.no_grad():
                    gm.weight.copy_(to_gnn(tm.weight.detach().numpy()))
                    if tm.bias is not None:
                        gm.bias.copy_(to_gnn(tm.bias.detach().numpy()))
                self.check_op(lambda x: gm(x), lambda x: tm(x), [rand(shape, dtype, seed=k)],
                              name='%s%r' % (name, kw))

    def test_bad_mode(self):
        # gnn checks a layer's properties when it is set up (its first use)
        with self.assertRaises(GLib.Error) as ctx:
            Gnn.Conv2d(2, 2, 3, padding_mode='wrap')(Gnn.tensor(np.zeros((1, 2, 4, 4), np.float32)))
        self.assertTrue(ctx.exception.matches(Gnn.error_quark(), Gnn.Error.INVALID_ARGUMENT))
        self.assertIn("padding_mode must be one of ['zeros', 'reflect', 'replicate', 'circular']",
                      ctx.exception.message)
        with self.assertRaises(ValueError):
            torch.nn.Conv2d(2, 2, 3, padding_mode='wrap')


if __name__ == '__main__':
    main()
