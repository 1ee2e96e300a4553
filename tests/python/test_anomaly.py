"""Anomaly detection (detect_anomaly, set_detect_anomaly) against torch 1.13."""
import warnings

import numpy as np
import torch

from gnntest import ParityTest, main
import gnn


class AnomalyTest(ParityTest):
    def run_both(self, fn):
        out = []
        for T in (gnn, torch):
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter('always')
                out.append((fn(T), [str(w.message) for w in caught if w.category is UserWarning]))
        return out

    def test_nan_names_the_function(self):
        def fn(T):
            x = T.tensor([0.0, 1.0], requires_grad=True)
            with T.autograd.detect_anomaly():
                y = (x.sqrt() * 0).sum()
                try:
                    y.backward()
                except RuntimeError as e:
                    return str(e)
        (g, gw), (t, tw) = self.run_both(fn)
        self.assertIn("Function 'SqrtBackward0' returned nan values in its 0th output.", g)
        self.assertIn(t, g)
        for warned in (gw, tw):
            self.assertTrue(warned[0].startswith('Anomaly Detection has been enabled.'))
            self.assertTrue(warned[1].startswith('Error detected in SqrtBackward0. Traceback of forward '
                                                 'call that caused the error:'))
            self.assertIn('y = (x.sqrt() * 0).sum()', warned[1])

    def test_second_output_and_grad(self):
        def fn(T):
            x = T.tensor([0.0, 1.0], requires_grad=True)
            with T.autograd.set_detect_anomaly(True):
                try:
                    T.autograd.grad((x / x).sum(), x)
                except RuntimeError as e:
                    return str(e)
        (g, _), (t, _) = self.run_both(fn)
        self.assertIn("Function 'DivBackward0' returned nan values in its 1th output.", g)
        self.assertIn(t, g)

    def test_modes_and_check_nan(self):
        for T in (gnn, torch):
            self.assertFalse(T.is_anomaly_enabled())
            self.assertTrue(T.is_anomaly_check_nan_enabled())
            x = T.tensor([0.0, 1.0], requires_grad=True)
            with T.autograd.set_detect_anomaly(True, check_nan=False):
                self.assertTrue(T.is_anomaly_enabled())
                self.assertFalse(T.is_anomaly_check_nan_enabled())
                (x.sqrt() * 0).sum().backward()
            self.assertTrue(np.isnan(x.grad.numpy()[0]))
            self.assertFalse(T.is_anomaly_enabled())
            self.assertTrue(T.is_anomaly_check_nan_enabled())
            # off: NaN gradients come through silently
            x.grad = None
            (x.sqrt() * 0).sum().backward()
            self.assertTrue(np.isnan(x.grad.numpy()[0]))
            prev = T.autograd.set_detect_anomaly(True)
            self.assertTrue(T.is_anomaly_enabled())
            prev.__exit__(None, None, None)
            self.assertFalse(T.is_anomaly_enabled())

    def test_wrong_gradient_shape_is_reported(self):
        # a custom Function whose backward returns a gradient of the wrong shape: the error
        # names it, and anomaly mode reports the forward call that made the node
        def fn(T):
            class WrongShape(T.autograd.Function):
                @staticmethod
                def forward(ctx, x):
                    return x * 2

                @staticmethod
                def backward(ctx, g):
                    return T.ones(5)
            x = T.ones(3, requires_grad=True)
            with T.autograd.detect_anomaly():
                y = WrongShape.apply(x).sum()
                try:
                    y.backward()
                except RuntimeError as e:
                    return getattr(e, 'message', str(e))
        (g, gw), (t, tw) = self.run_both(fn)
        self.assertIn('returned an invalid gradient at index 0 - got [5] but expected shape '
                      'compatible with [3]', t)
        self.assertIn('WrongShapeBackward returned an invalid gradient at index 0 - got [5]', g)
        for warned in (gw, tw):
            self.assertTrue(warned[1].startswith('Error detected in WrongShapeBackward. Traceback '
                                                 'of forward call that caused the error:'), warned)
            self.assertIn('y = WrongShape.apply(x).sum()', warned[1])


if __name__ == '__main__':
    main()
