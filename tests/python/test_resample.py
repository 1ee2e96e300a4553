#!/usr/bin/python3
"""Resampling against torch 1.13: F.interpolate in every mode on 3-d, 4-d and 5-d inputs,
with sizes and with scale factors (recomputed or not), align_corners, outputs and input
gradients in float32 and float64; the upsample spellings; the Upsample layers' printed forms
and outputs; and the errors torch raises."""

import warnings

import numpy as np
import torch
import torch.nn.functional as TF

from gnntest import Gnn, GLib, rand, to_gnn, to_np, ParityTest, main

import gnn
import gnn.nn.functional as GF

DTYPES = (np.float32, np.float64)


def message(e):
    return getattr(e, 'message', str(e))


class Interpolate(ParityTest):
    # (input shape, keyword arguments)
    CASES = [
        ((2, 3, 5), dict(size=8)),
        ((2, 3, 5), dict(size=3)),
        ((2, 3, 5), dict(scale_factor=2)),
        ((2, 3, 7), dict(scale_factor=0.6)),
        ((2, 3, 7), dict(scale_factor=1.7, recompute_scale_factor=True)),
        ((1, 2, 4, 5), dict(size=(7, 3))),
        ((1, 2, 4, 5), dict(scale_factor=(2.5, 1.5))),
        ((1, 2, 4, 5), dict(scale_factor=2)),
        ((1, 2, 6, 5), dict(size=(3, 2))),
        ((1, 2, 3, 4, 5), dict(size=(5, 2, 7))),
        ((1, 2, 3, 4, 5), dict(scale_factor=(1.5, 0.5, 2.2))),
    ]
    MODES = {3: ('nearest', 'nearest-exact', 'linear', 'area'),
             4: ('nearest', 'nearest-exact', 'bilinear', 'bicubic', 'area'),
             5: ('nearest', 'nearest-exact', 'trilinear', 'area')}

    def test_parity(self):
        for np_dtype in DTYPES:
            for k, (shape, kw) in enumerate(self.CASES):
                for mode in self.MODES[len(shape)]:
                    aligns = (None, True, False) if mode in ('linear', 'bilinear', 'bicubic', 'trilinear') \
                        else (None,)
                    for align in aligns:
                        args = dict(kw, mode=mode, align_corners=align)
                        name = 'interpolate %s %s %s' % (shape, args, np_dtype.__name__)
                        with self.subTest(name=name):
                            x = rand(shape, np_dtype, seed=k)
                            # bicubic's taps have weights of both signs: where the sum cancels
                            # to near 0, float32 rounding in a different order than aten's
                            # (which may fuse its multiply-adds) differs by a few ulps of the
                            # inputs (|x| <= 2), so an absolute 1e-5 there
                            atol = 1e-5 if mode == 'bicubic' and np_dtype == np.float32 else None
                            self.check_op(lambda x_: GF.interpolate(x_, **args),
                                          lambda x_: TF.interpolate(x_, **args), [x], atol=atol, name=name)

    def test_nearest_keeps_nan_apart(self):
        # nearest reads one input element for each output element: a NaN stays where it was read
        x = np.arange(6, dtype=np.float32).reshape(1, 1, 6)
        x[0, 0, 1] = np.nan
        got = to_np(GF.interpolate(to_gnn(x), size=3))
        want = TF.interpolate(torch.from_numpy(x), size=3).numpy()
        np.testing.assert_array_equal(got, want)
        self.assertEqual(int(np.isnan(got).sum()), 0)

    def test_upsample_spellings(self):
        x = rand((1, 2, 3, 4), np.float32, seed=3)
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')
            for g, t, kw in ((GF.upsample, TF.upsample, dict(scale_factor=2, mode='bilinear')),
                             (GF.upsample_nearest, TF.upsample_nearest, dict(size=(5, 7))),
                             (GF.upsample_bilinear, TF.upsample_bilinear, dict(scale_factor=1.5))):
                self.check_op(lambda x_: g(x_, **kw), lambda x_: t(x_, **kw), [x], name=g.__name__)

    def test_errors(self):
        x = to_gnn(rand((1, 2, 4, 4)))
        t = torch.zeros(1, 2, 4, 4)
        for kw, exc in ((dict(), ValueError),
                        (dict(size=2, scale_factor=2), ValueError),
                        (dict(size=(2, 3, 4)), ValueError),
                        (dict(scale_factor=(2, 3, 4)), ValueError),
                        (dict(size=2, align_corners=True), ValueError),
                        (dict(size=2, recompute_scale_factor=True), ValueError),
                        (dict(size=2, mode='linear'), NotImplementedError),
                        (dict(size=2, mode='trilinear'), NotImplementedError),
                        (dict(size=2, mode='cubic'), NotImplementedError)):
            with self.subTest(kw=kw):
                self.assertRaises(exc, TF.interpolate, t, **kw)
                self.assertRaises(exc, GF.interpolate, x, **kw)
        self.assertRaises(NotImplementedError, TF.interpolate, torch.zeros(2, 4), size=2)
        self.assertRaises(NotImplementedError, GF.interpolate, to_gnn(rand((2, 4))), size=2)
        # antialias: torch 1.13 has it, gnn says it does not yet
        with self.assertRaisesRegex(GLib.Error, 'antialias=True is not supported yet'):
            GF.interpolate(x, size=2, mode='bilinear', antialias=True)
        # the C op's own errors
        with self.assertRaisesRegex(GLib.Error, 'sizes should be greater than 0'):
            GF.interpolate(x, scale_factor=0.1)
        self.assertRaises(RuntimeError, TF.interpolate, t, scale_factor=0.1)
        with self.assertRaisesRegex(GLib.Error, 'expected a floating-point'):
            Gnn.Tensor.interpolate(to_gnn(np.zeros((1, 1, 2), np.int64)), [4], None, 'nearest', False, False,
                                   False)
        with self.assertRaisesRegex(GLib.Error, "mode must be one of .* got 'cubic'"):
            Gnn.Tensor.interpolate(x, [4], None, 'cubic', False, False, False)
        with self.assertRaisesRegex(GLib.Error, 'bilinear mode needs 4D input'):
            Gnn.Tensor.interpolate(to_gnn(rand((1, 1, 2))), [4], None, 'bilinear', False, False, False)


if __name__ == '__main__':
    main()
