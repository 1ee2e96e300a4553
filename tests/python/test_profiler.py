# torch.profiler over gnn (gnn/profiler/gnn-profiler.c): the torch spellings run, and their
# events, averages and table follow torch 1.13's (the oracle for names, columns and averaging,
# not for timings)
#
# SPDX-License-Identifier: LGPL-2.1-or-later
import unittest

import torch

import gnn
from gi.repository import Gnn


def small_model(lib):
    return lib.nn.Sequential(lib.nn.Linear(4, 8), lib.nn.ReLU(), lib.nn.Linear(8, 3))


def train_step(lib, model, opt, x):
    opt.zero_grad()
    with lib.profiler.record_function('forward-pass'):
        loss = model(x).sum()
    loss.backward()
    opt.step()


class TestProfile(unittest.TestCase):
    def profile_step(self, **kwargs):
        model = small_model(gnn)
        opt = gnn.optim.SGD(model.parameters(), lr=0.1)
        x = gnn.randn(5, 4)
        with gnn.profiler.profile(activities=[gnn.profiler.ProfilerActivity.CPU], **kwargs) as prof:
            train_step(gnn, model, opt, x)
        return prof

    def test_events(self):
        prof = self.profile_step(record_shapes=True, with_flops=True)
        events = prof.events()
        names = [e.name for e in events]
        for name in ('forward-pass', 'Sequential', '0 (Linear)', '1 (ReLU)', '2 (Linear)',
                     'Optimizer.step#SGD.step', 'Optimizer.zero_grad#SGD.zero_grad', 'AccumulateGrad'):
            self.assertIn(name, names)
        by_id = {e.id: e for e in events}
        for e in events:
            self.assertLessEqual(e.self_cpu_time_total, e.cpu_time_total)
            if e.cpu_parent_id is not None:
                p = by_id[e.cpu_parent_id]
                self.assertGreaterEqual(e.time_range_start, p.time_range_start)
                self.assertLessEqual(e.time_range_end, p.time_range_end + 1e-3)
        first = names.index('0 (Linear)')
        gemms = [e for e in events if e.name == 'gemm' and e.cpu_parent_id == events[first].id]
        self.assertEqual(len(gemms), 1)
        self.assertEqual(gemms[0].flops, 2 * 5 * 8 * 4)
        self.assertEqual(gemms[0].dtype, 'float32')
        self.assertTrue(all(isinstance(s, list) for s in gemms[0].input_shapes))

    def test_defaults_record_neither_shapes_nor_flops(self):
        prof = self.profile_step()
        for e in prof.events():
            self.assertEqual(e.input_shapes, [])
            self.assertEqual(e.flops, 0)

    def test_record_function_decorator_and_spellings(self):
        @gnn.profiler.record_function('decorated')
        def f(x):
            return x * 2

        with gnn.autograd.profiler.profile() as prof:
            f(gnn.ones(3))
        names = [e.name for e in prof.events()]
        self.assertIn('decorated', names)
        self.assertIs(gnn.autograd.profiler.record_function, gnn.profiler.record_function)
        self.assertIs(Gnn.profiler.record_function, gnn.profiler.record_function)
        # without a profiler record_function still pairs
        with gnn.profiler.record_function('unprofiled'):
            pass

    def test_misuse(self):
        prof = gnn.profiler.profile()
        with self.assertRaisesRegex(RuntimeError, 'not started'):
            prof.stop()
        with prof:
            with self.assertRaisesRegex(RuntimeError, 'already recording'):
                prof.start()
            with self.assertRaisesRegex(RuntimeError, 'another profiler'):
                gnn.profiler.profile().start()
        with self.assertRaises(ValueError):
            gnn.profiler.profile(activities=['cpu'])

    def test_torch_runs_the_same_spellings(self):
        # the oracle: the same code runs on torch 1.13
        for lib in (torch, gnn):
            model = small_model(lib)
            opt = lib.optim.SGD(model.parameters(), lr=0.1)
            with lib.profiler.profile(activities=[lib.profiler.ProfilerActivity.CPU],
                                      record_shapes=True, with_flops=True) as prof:
                train_step(lib, model, opt, lib.randn(5, 4))
            names = [e.name for e in prof.events()]
            self.assertIn('forward-pass', names)
            self.assertIn('Optimizer.step#SGD.step', names)


if __name__ == '__main__':
    unittest.main()
