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
                     'Optimizer.step#SGD.step', 'Optimizer.zero_grad#SGD.zero_grad', 'AccumulateGrad',
                     'Sequential backward', '0 (Linear) backward', '1 (ReLU) backward', '2 (Linear) backward'):
            self.assertIn(name, names)
        by_id = {e.id: e for e in events}
        # a module's backward range: of its own kind, after its forward, inside its parent's
        backward = events[names.index('0 (Linear) backward')]
        self.assertEqual(backward.kind, Gnn.ProfilerEventKind.MODULE_BACKWARD)
        self.assertGreaterEqual(backward.time_range_start, events[names.index('0 (Linear)')].time_range_end)
        self.assertEqual(by_id[backward.cpu_parent_id].name, 'Sequential backward')
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
        for lib in (torch, gnn):
            with lib.autograd.profiler.profile(enabled=False) as off:
                lib.ones(3).exp()
            self.assertIsNone(off)
            with lib.autograd.profiler.profile(True, use_cpu=True, record_shapes=True) as on:
                lib.ones(3).exp()
            self.assertIn('Self CPU time total', on.table(sort_by='cpu_time_total'))
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


def header_cells(table):
    """The column names of a printed table (its second line)."""
    import re
    return [c for c in re.split(r'\s{2,}', table.split('\n')[1].strip()) if c]


class TestKeyAverages(unittest.TestCase):
    def profile(self, lib, steps=2, **kwargs):
        model = small_model(lib)
        opt = lib.optim.SGD(model.parameters(), lr=0.1)
        x = lib.randn(5, 4)
        with lib.profiler.profile(activities=[lib.profiler.ProfilerActivity.CPU], **kwargs) as prof:
            for _ in range(steps):
                train_step(lib, model, opt, x)
        return prof

    def test_averaging_as_torch(self):
        # torch 1.13's averaging: per key, the count of its events and their times summed
        for lib in (torch, gnn):
            prof = self.profile(lib, record_shapes=True)
            events = prof.events()
            avgs = prof.key_averages()
            self.assertEqual(len({a.key for a in avgs}), len(avgs))
            self.assertEqual(sum(a.count for a in avgs), len(events))
            for a in avgs:
                mine = [e for e in events if e.name == a.key]
                self.assertEqual(a.count, len(mine), (lib.__name__, a.key))
                self.assertAlmostEqual(a.cpu_time_total, sum(e.cpu_time_total for e in mine), delta=1e-3)
                self.assertAlmostEqual(a.self_cpu_time_total, sum(e.self_cpu_time_total for e in mine), delta=1e-3)
                self.assertAlmostEqual(a.cpu_time, a.cpu_time_total / a.count, delta=1e-3)
                self.assertLessEqual(a.self_cpu_time_total, a.cpu_time_total + 1e-3)
                self.assertEqual(a.input_shapes, '')
            by_name = {a.key: a for a in avgs}
            self.assertEqual(by_name['forward-pass'].count, 2)
            self.assertEqual(by_name['Optimizer.step#SGD.step'].count, 2)
            grouped = prof.key_averages(group_by_input_shape=True)
            self.assertGreater(len(grouped), len(avgs))
            self.assertEqual(sum(a.count for a in grouped), len(events))
            self.assertTrue(any(a.input_shapes for a in grouped))

    def test_table_columns_as_torch(self):
        tables = {}
        for lib in (torch, gnn):
            prof = self.profile(lib, record_shapes=True)
            plain = prof.key_averages().table(sort_by='self_cpu_time_total', row_limit=10)
            shaped = prof.key_averages(group_by_input_shape=True).table(sort_by='cpu_time_total', row_limit=5)
            tables[lib.__name__] = (plain, shaped)
            lines = plain.split('\n')
            self.assertTrue(lines[-2].startswith('Self CPU time total: '))
            self.assertEqual(len(lines), 10 + 6)   # 3 above, 10 rows, a separator, the total, ''
            self.assertEqual(len(shaped.split('\n')), 5 + 6)
        for i in range(2):
            self.assertEqual(header_cells(tables['gnn'][i]), header_cells(tables['torch'][i]))
        self.assertEqual(header_cells(tables['gnn'][0]),
                         ['Name', 'Self CPU %', 'Self CPU', 'CPU total %', 'CPU total', 'CPU time avg',
                          '# of Calls'])
        self.assertEqual(header_cells(tables['gnn'][1])[-1], 'Input Shapes')

    def test_cuda_spellings_as_torch(self):
        # on the CPU no kernel has a device time: the CUDA attributes are 0, the table has no
        # CUDA columns, and torch's CUDA sort keys are accepted (device times themselves:
        # tests/c/test-cuda.c, /cuda/profiler-device-times, on the fake device and on a GPU)
        for lib in (torch, gnn):
            prof = self.profile(lib)
            avgs = prof.key_averages()
            for obj in list(avgs) + [e for e in prof.events()]:
                for attr in ('cuda_time_total', 'self_cuda_time_total', 'cuda_time'):
                    self.assertEqual(getattr(obj, attr), 0, (lib.__name__, attr))
            for key in ('self_cuda_time_total', 'cuda_time_total', 'cuda_time'):
                table = avgs.table(sort_by=key, row_limit=3)
                self.assertNotIn('CUDA', table)

    def test_table_flops_column(self):
        prof = self.profile(gnn, with_flops=True)
        cells = header_cells(prof.key_averages().table(row_limit=3))
        self.assertRegex(cells[-1], r'^Total [KMGTP]?FLOPs$')
        t = self.profile(torch, with_flops=True)
        self.assertRegex(header_cells(t.key_averages().table(row_limit=3))[-1], r'^Total [KMGTP]?FLOPs$')

    def test_sorted_by_self_time(self):
        prof = self.profile(gnn)
        avgs = prof.key_averages()
        top = max(avgs, key=lambda a: a.self_cpu_time_total)
        row = prof.key_averages().table(sort_by='self_cpu_time_total', row_limit=1).split('\n')[3]
        self.assertEqual(row.strip().split('  ')[0], top.key)
        with self.assertRaisesRegex(ValueError, 'sort_by'):
            avgs.table(sort_by='self_time')
        # the older spelling's table
        self.assertIn('Self CPU time total', prof.table(sort_by='count'))


class TestMemory(unittest.TestCase):
    """profile_memory=True: torch 1.13's CPU profiler is the oracle for the attributes, the
    table's columns and the bytes of an allocation of a known size."""

    def profile_zeros(self, lib):
        with lib.profiler.profile(activities=[lib.profiler.ProfilerActivity.CPU], profile_memory=True) as prof:
            with lib.profiler.record_function('alloc'):
                x = lib.zeros(1000)
        del x
        return prof

    def test_zeros_bytes_as_torch(self):
        for lib in (torch, gnn):
            prof = self.profile_zeros(lib)
            alloc = [e for e in prof.events() if e.name == 'alloc']
            self.assertEqual(len(alloc), 1)
            # 1000 float32: 4000 bytes in the op that made them (torch's aten::zeros, gnn's
            # kernel); torch's range also holds its record_function handle's 4 bytes, freed
            if lib is torch:
                inner = [e for e in prof.events() if e.cpu_parent is alloc[0]]
            else:
                inner = [e for e in prof.events() if e.cpu_parent_id == alloc[0].id]
            self.assertEqual(max(e.cpu_memory_usage for e in inner), 4000, lib.__name__)
            self.assertIn(alloc[0].cpu_memory_usage, (4000, 3996), lib.__name__)
            self.assertEqual(alloc[0].cuda_memory_usage, 0)
            by_key = {a.key: a for a in prof.key_averages()}
            self.assertIn(by_key['alloc'].cpu_memory_usage, (4000, 3996))
            for a in by_key.values():
                for attr in ('cpu_memory_usage', 'self_cpu_memory_usage', 'cuda_memory_usage',
                             'self_cuda_memory_usage'):
                    self.assertIsInstance(getattr(a, attr), int)

    def test_table_columns_as_torch(self):
        cells = {}
        for lib in (torch, gnn):
            prof = self.profile_zeros(lib)
            for key in ('self_cpu_memory_usage', 'cpu_memory_usage'):
                table = prof.key_averages().table(sort_by=key, row_limit=5)
                cells.setdefault(lib.__name__, []).append(header_cells(table))
                self.assertIn('3.91 Kb', table)
        self.assertEqual(cells['gnn'], cells['torch'])
        self.assertEqual(cells['gnn'][0], ['Name', 'Self CPU %', 'Self CPU', 'CPU total %', 'CPU total',
                                           'CPU time avg', 'CPU Mem', 'Self CPU Mem', '# of Calls'])

    def test_chrome_trace_memory_events(self):
        import json
        import os
        import tempfile
        prof = self.profile_zeros(gnn)
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, 'trace.json')
            prof.export_chrome_trace(path)
            with open(path) as f:
                trace = json.load(f)['traceEvents']
        memory = [e for e in trace if e['name'] == '[memory]']
        self.assertEqual(len(memory), 1)
        self.assertEqual(memory[0]['ph'], 'i')
        self.assertEqual(memory[0]['args']['Bytes'], 4000)
        self.assertEqual(memory[0]['args']['Total Allocated'], 4000)
        self.assertIn('Addr', memory[0]['args'])

    def test_off_by_default(self):
        prof = TestKeyAverages().profile(gnn)
        self.assertNotIn('CPU Mem', prof.key_averages().table())
        self.assertTrue(all(e.cpu_memory_usage == 0 for e in prof.events()))


class TestTraceAndSchedule(unittest.TestCase):
    def test_chrome_trace(self):
        import json
        import os
        import tempfile
        model = small_model(gnn)
        opt = gnn.optim.SGD(model.parameters(), lr=0.1)
        with gnn.profiler.profile(record_shapes=True, with_flops=True) as prof:
            train_step(gnn, model, opt, gnn.randn(5, 4))
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, 'trace.json')
            prof.export_chrome_trace(path)
            with open(path) as f:
                trace = json.load(f)
            with self.assertRaises(Exception) as cm:
                prof.export_chrome_trace(os.path.join(d, 'no', 'trace.json'))
            self.assertIn(os.path.join(d, 'no', 'trace.json'), getattr(cm.exception, 'message', str(cm.exception)))
        events = trace['traceEvents']
        self.assertEqual(len(events), len(prof.events()))
        for e in events:
            for key in ('name', 'ph', 'ts', 'dur', 'pid', 'tid', 'cat', 'args'):
                self.assertIn(key, e)
            self.assertEqual(e['ph'], 'X')
        names = {e['name'] for e in events}
        self.assertIn('0 (Linear)', names)
        self.assertIn('ProfilerStep#0', names)

    def test_schedule_as_torch(self):
        # the same schedule's actions as torch 1.13's
        for args in (dict(wait=1, warmup=1, active=2, repeat=2, skip_first=1),
                     dict(wait=0, warmup=0, active=1), dict(wait=2, warmup=0, active=3, repeat=1)):
            ts = torch.profiler.schedule(**args)
            gs = gnn.profiler.schedule(**args)
            self.assertEqual([gs(i).name for i in range(20)], [ts(i).name for i in range(20)], args)
        with self.assertRaises(ValueError):
            gnn.profiler.schedule(wait=1, warmup=1, active=0)

    def test_on_trace_ready(self):
        seen = {}
        for lib in (torch, gnn):
            ready = []

            def handler(p, ready=ready):
                ready.append(sorted({e.name for e in p.events() if e.name.startswith('ProfilerStep#')}))
            with lib.profiler.profile(schedule=lib.profiler.schedule(wait=1, warmup=1, active=2, repeat=2),
                                      on_trace_ready=handler) as p:
                for _ in range(10):
                    lib.ones(3).exp()
                    p.step()
            seen[lib.__name__] = ready
        self.assertEqual(len(seen['gnn']), len(seen['torch']))
        self.assertEqual(seen['gnn'], [['ProfilerStep#2', 'ProfilerStep#3'], ['ProfilerStep#6', 'ProfilerStep#7']])
        with self.assertRaises(TypeError):
            gnn.profiler.profile(schedule=lambda step: None)

    def test_missing_names(self):
        with self.assertRaisesRegex(AttributeError, 'TensorBoard'):
            gnn.profiler.tensorboard_trace_handler


if __name__ == '__main__':
    unittest.main()
