#!/usr/bin/python3
"""gnn-viewer's Profile page from the outside, under xvfb-run (as test_gnn_viewer.py runs it):

- a chrome trace written by GnnProfiler's export_chrome_trace for one training step of a small
  model (a Linear shared twice), opened as a FILE as File > Open opens it, shows on the Profile
  page: a row per module of named_modules with its calls, total and self time and share of the
  step exactly as recomputed here from the trace's events, sorted by total, largest first; and a
  flame chart of every event, each in the row of its depth (its chain of parent ids), inside its
  parent in time, found by hovering the middle of the bar drawn for it, also once zoomed in;
  selecting a module's row zooms the chart to its first call; a trace of two steps shows either;
- traces that are bad, truncated or of the wrong shape show their error in the window (a toast
  naming the file, what was expected and what was found), exit 2 and never crash;
- with --train --profile-step K the K-th step of the default CNN is profiled inside the trainer
  and shown: every module of the CNN, forward, backward and optimizer times inside the step;
  Profile a Step (--profile-next) profiles the next step, training one step when none runs,
  with the statistics hooks blocked for that step; saved as a chrome trace (--save-trace) it
  opens again to the same table and ranges.

    test_gnn_viewer_profile.py BUILD_DIR/tools/gnn-viewer

Exits with 77 (skipped) when xvfb-run is missing; the training test is skipped when
Fashion-MNIST is not installed."""
import json
import os
import shutil
import sys
import tempfile
import unittest

import gi
gi.require_version('Gnn', '1.0')
from gi.repository import Gnn, GLib  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import test_gnn_viewer as base  # noqa: E402


def small_model():
    """Sequential (Linear, ReLU, a Linear shared twice, Tanh, Linear)."""
    Gnn.manual_seed(3)
    shared = Gnn.Linear.new(16, 16, True)
    return Gnn.Sequential.new([Gnn.Linear.new(8, 16, True), Gnn.ReLU.new(), shared, Gnn.Tanh.new(),
                               shared, Gnn.Linear.new(16, 4, True)])


def write_trace(model, path):
    """One profiled training step of @model (forward, backward, SGD) in torch's spelling, as a
    chrome trace; its events."""
    import gnn
    opt = gnn.optim.SGD(model.parameters(), lr=0.1)
    x = gnn.randn(6, 8)
    with gnn.profiler.profile(activities=[gnn.profiler.ProfilerActivity.CPU]) as prof:
        opt.zero_grad()
        model(x).sum().backward()
        opt.step()
    prof.export_chrome_trace(path)
    with open(path) as f:
        return json.load(f)['traceEvents']


def read_profile(path):
    out = {'module': [], 'range': [], 'category': {}}
    with open(path) as f:
        for line in f.read().splitlines():
            cols = line.split('\t')
            if cols[0] == 'step':
                out['step'] = [int(c) for c in cols[1:]]
            elif cols[0] == 'chart':
                out['chart'] = (int(cols[1]), float(cols[2]), float(cols[3]))
            elif cols[0] == 'selected':
                out['selected'] = cols[1]
            elif cols[0] == 'summary':
                out['summary'] = cols[1]
            elif cols[0] == 'category':
                out['category'][cols[1]] = int(cols[2])
            elif cols[0] == 'module':
                out['module'].append((cols[1], cols[2], int(cols[3]), int(cols[4]), int(cols[5]),
                                      float(cols[6])))
            elif cols[0] == 'range':
                out['range'].append({'row': int(cols[1]), 'depth': int(cols[2]), 'thread': int(cols[3]),
                                     'start': int(cols[4]), 'dur': int(cols[5]), 'self': int(cols[6]),
                                     'cat': cols[7], 'name': cols[8], 'hit': cols[9], 'tooltip': cols[10]})
    return out


def duration(n):
    """A duration as the viewer writes it: 4 significant digits in ns, µs, ms or s."""
    for unit, scale in (('s', 1e9), ('ms', 1e6), ('µs', 1e3)):
        if n >= scale:
            v = n / scale
            decimals = max(0, 3 - len(str(int(v))) + 1)
            return '%.*f %s' % (decimals, v, unit)
    return '%d ns' % n


SIDE = 12      # the flame chart's margins (GV_FLAME_CHART_SIDE)


def check_hits(test, got):
    """Each bar is found under its middle exactly when it is drawn 3 pixels wide or more with
    its middle in view, by the geometry the chart reports: its width and the time it shows."""
    width, v0, span = got['chart']
    pw = width - 2 * SIDE
    test.assertGreater(pw, 100)
    checked = 0
    for bar in got['range']:
        w = max(pw * bar['dur'] / span, 1)
        middle = SIDE + pw * (bar['start'] - v0) / span + w / 2
        if abs(w - 3) < 0.5 or abs(middle - SIDE) < 1 or abs(middle - SIDE - pw) < 1:
            continue                                   # on an edge: either way
        drawn = w >= 3 and SIDE < middle < SIDE + pw
        test.assertEqual(bar['hit'], bar['name'] if drawn else '', (bar, w, middle))
        checked += 1
    test.assertGreater(checked, len(got['range']) // 2)


def ns(us):
    return int(round(us * 1000))


class ProfilePageTest(base.ViewerAsserts, unittest.TestCase):
    def test_saved_trace(self):
        model = small_model()
        d = tempfile.mkdtemp(dir=base.TMP)
        trace, dump, state, png = (os.path.join(d, n) for n in ('step.json', 'p.tsv', 's.tsv', 's.png'))
        events = write_trace(model, trace)
        r = base.run_viewer(trace, '--dump-profile', dump, '--dump-state', state, '--screenshot', png)
        self.assert_ok(r)
        shown = base.read_state(state)
        self.assertEqual(shown['page'], 'profile')
        self.assertEqual(shown['message'], [])
        got = read_profile(dump)

        by_id = {e['args']['id']: e for e in events}

        def parent(e):
            return by_id.get(e['args'].get('parent'))

        step = [e for e in events if e['cat'] == 'profiler_step']
        self.assertEqual(len(step), 1)
        step_ns = ns(step[0]['dur'])
        self.assertEqual(got['step'][:2], [step_ns, 1])

        # the table: named_modules, each module's calls and times from the trace's events
        want = {}
        for name, type_name, _ in base.expected_tree(model):
            label = '%s (%s)' % (name, type_name) if name else type_name
            calls = [e for e in events if e['cat'] == 'module' and e['name'] == label]
            inner = 0
            for e in events:
                if e['cat'] != 'module':
                    continue
                p = parent(e)
                while p is not None and p['cat'] != 'module':
                    p = parent(p)
                if p is not None and p['name'] == label:
                    inner += ns(e['dur'])
            total = sum(ns(e['dur']) for e in calls)
            want[name] = (type_name, len(calls), total, total - inner)
        self.assertEqual(sorted(row[0] for row in got['module']), sorted(want))
        self.assertEqual(want['2'][1], 2)         # the shared Linear, called twice
        for path, type_name, calls, total, self_ns, percent in got['module']:
            self.assertEqual((type_name, calls, total, self_ns), want[path], path)
            self.assertAlmostEqual(percent, 100.0 * total / step_ns, delta=1e-4 * max(percent, 1))
        totals = [row[3] for row in got['module']]
        self.assertEqual(totals, sorted(totals, reverse=True))   # by total, the largest first
        self.assertEqual(got['module'][0][0], '')                 # the model holds the others

        # the flame chart: every event, in the row of its depth, inside its parent
        self.assertEqual(len(got['range']), len(events))
        self.assertEqual(got['step'][2], 1 + max(r['depth'] for r in got['range']))
        t0 = ns(step[0]['ts'])
        drawn = {(r['name'], r['start'], r['dur']): r for r in got['range']}
        for e in events:
            bar = drawn[(e['name'], ns(e['ts']) - t0, ns(e['dur']))]
            depth, p = 0, parent(e)
            while p is not None:
                depth, p = depth + 1, parent(p)
            self.assertEqual((bar['depth'], bar['row']), (depth, depth), e['name'])
            p = parent(e)
            if p is not None:
                self.assertGreaterEqual(ns(e['ts']), ns(p['ts']))
                self.assertLessEqual(ns(e['ts']) + ns(e['dur']), ns(p['ts']) + ns(p['dur']))
        self.assertEqual(got['chart'][1:], (0, step_ns))     # the whole step in view
        check_hits(self, got)
        hits = [bar for bar in got['range'] if bar['hit']]
        self.assertGreater(len(hits), 5)
        for bar in hits:
            self.assertEqual(bar['hit'], bar['name'])
            # hovering shows its name, kind, duration and self time
            name, what = bar['tooltip'].split(' | ')
            self.assertEqual(name, bar['name'])
            kind = {'module': 'module forward', 'kernel': 'kernel', 'backward': 'backward',
                    'module_backward': 'module backward',
                    'optimizer': 'optimizer', 'profiler_step': 'step'}[bar['cat']]
            self.assertEqual(what.split(' · ')[0], kind)
            self.assertEqual(what.split(' · ')[1], '%s (self %s)' % (duration(bar['dur']), duration(bar['self'])))
        self.assertGreater(got['category']['module'], 0)
        self.assertGreater(got['category']['backward'], 0)
        self.assert_screenshot(r, png)

    def test_zoom(self):
        """--zoom-to NAME zooms the flame chart to a range as double-clicking it does: the bars
        inside it grow wide enough to be found under the pointer, those out of view are not."""
        model = small_model()
        d = tempfile.mkdtemp(dir=base.TMP)
        trace, full, zoomed, state = (os.path.join(d, n) for n in ('t.json', 'f.tsv', 'z.tsv', 's.tsv'))
        write_trace(model, trace)
        r = base.run_viewer(trace, '--dump-profile', full, timeout=60)
        self.assert_ok(r)
        r = base.run_viewer(trace, '--zoom-to', '0 (Linear)', '--dump-profile', zoomed, timeout=60)
        self.assert_ok(r)
        before, after = read_profile(full)['range'], read_profile(zoomed)
        check_hits(self, after)
        view = after['chart']
        after = after['range']
        self.assertEqual([(b['name'], b['start']) for b in before], [(a['name'], a['start']) for a in after])
        target = [a for a in after if a['name'] == '0 (Linear)'][0]
        self.assertEqual(target['hit'], target['name'])
        # the view: the range and 2 % of it either side
        self.assertAlmostEqual(view[1], target['start'] - 0.02 * target['dur'], delta=1)
        self.assertAlmostEqual(view[2], 1.04 * target['dur'], delta=1)
        t0, t1 = target['start'], target['start'] + target['dur']
        inside = [i for i, a in enumerate(after) if a['start'] >= t0 and a['start'] + a['dur'] <= t1]
        self.assertGreater(len(inside), 1)
        for i in inside:
            if after[i]['dur'] >= 0.03 * target['dur']:
                self.assertEqual(after[i]['hit'], after[i]['name'], after[i])
        self.assertGreaterEqual(sum(1 for i in inside if after[i]['hit']),
                                sum(1 for i in inside if before[i]['hit']))
        for a in after:
            if a['hit']:
                self.assertEqual(a['hit'], a['name'])
            if a['start'] + a['dur'] < t0 - 0.02 * target['dur'] or a['start'] > t1 + 0.02 * target['dur']:
                self.assertEqual(a['hit'], '', a)   # out of view
        # selecting a module's row in the table zooms to its first call (the shared Linear: of two)
        for path, name in (('2', '2 (Linear)'), ('', 'Sequential')):
            r = base.run_viewer(trace, '--select', path, '--dump-profile', zoomed, timeout=60)
            self.assert_ok(r)
            got = read_profile(zoomed)
            self.assertEqual(got['selected'], path)
            first = min((a for a in got['range'] if a['name'] == name), key=lambda a: a['start'])
            self.assertAlmostEqual(got['chart'][1], first['start'] - 0.02 * first['dur'], delta=1)
            self.assertAlmostEqual(got['chart'][2], 1.04 * first['dur'], delta=1)
            self.assertEqual(first['hit'], name)
            check_hits(self, got)
        r = base.run_viewer(trace, '--select', '9', '--dump-state', state, timeout=60)
        self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
        self.assertIn('--select: the model has no module “9”', base.read_state(state)['message'][0])
        r = base.run_viewer(trace, '--zoom-to', 'nothing', '--dump-state', state, timeout=60)
        self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
        self.assertIn('--zoom-to: the flame chart has no range “nothing”', base.read_state(state)['message'][0])

    def test_trace_of_two_steps(self):
        """A trace of two steps shows the first, and with --trace-step 2 the second: its ranges
        alone, its times."""
        import gnn
        model = small_model()
        d = tempfile.mkdtemp(dir=base.TMP)
        trace, dump, state = (os.path.join(d, n) for n in ('two.json', 'p.tsv', 's.tsv'))
        x = gnn.randn(6, 8)
        with gnn.profiler.profile() as prof:
            model(x).sum().backward()
            prof.step()
            model(x)
        prof.export_chrome_trace(trace)
        with open(trace) as f:
            events = json.load(f)['traceEvents']
        steps = sorted((e for e in events if e['cat'] == 'profiler_step'), key=lambda e: e['ts'])
        self.assertEqual(len(steps), 2)
        for k, step in enumerate(steps):
            r = base.run_viewer(trace, '--trace-step', str(k + 1), '--dump-profile', dump, timeout=60)
            self.assert_ok(r)
            got = read_profile(dump)
            self.assertEqual(got['step'][:2], [ns(step['dur']), 2])
            inside = [e for e in events if ns(e['ts']) >= ns(step['ts']) and
                      ns(e['ts']) + ns(e['dur']) <= ns(step['ts']) + ns(step['dur']) and
                      (e['cat'] != 'profiler_step' or e is step)]
            self.assertEqual(sorted(bar['name'] for bar in got['range']), sorted(e['name'] for e in inside))
            self.assertEqual(got['category']['backward'] > 0, k == 0)
        r = base.run_viewer(trace, '--trace-step', '3', '--dump-state', state, timeout=60)
        self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
        self.assertIn('--trace-step: expected a step from 1 to 2 of a trace opened, found 3',
                      base.read_state(state)['message'][0])

    def test_bad_traces(self):
        d = tempfile.mkdtemp(dir=base.TMP)
        good = os.path.join(d, 'good.json')
        events = write_trace(small_model(), good)
        with open(good) as f:
            text = f.read()
        files = {
            'truncated.json': (text[:len(text) // 2], 'found JSON that does not parse'),
            'empty-list.json': ('{"traceEvents": []}', 'expected complete ("ph": "X") events'),
            'not-a-list.json': ('{"traceEvents": {"name": "x"}}',
                                'expected "traceEvents" to be an array of events, found an object'),
            'string-ts.json': (json.dumps({'traceEvents': [dict(events[0], ts='later')]}),
                               'traceEvents[0]: expected a number for "ts", found a string'),
            'no-name.json': (json.dumps({'traceEvents': [{k: v for k, v in events[1].items() if k != 'name'}]}),
                             'traceEvents[0]: expected a string for "name", found no such member'),
            'deep.json': ('{"traceEvents": ' + '[' * 200 + ']' * 200 + '}', 'nesting deeper than'),
        }
        for name, (content, found) in files.items():
            path = os.path.join(d, name)
            with open(path, 'w') as f:
                f.write(content)
            state = os.path.join(d, 'state.tsv')
            r = base.run_viewer(path, '--dump-state', state, timeout=60)
            with self.subTest(file=name):
                self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
                for level in ('CRITICAL', 'Gtk-', 'GLib-', 'Adwaita-'):
                    self.assertNotIn(level, r.stderr)
                shown = base.read_state(state)
                self.assertEqual(len(shown['message']), 1, shown)
                message = shown['message'][0]
                self.assertIn(name, message)
                self.assertIn('expected' if name != 'deep.json' else 'nesting', message)
                self.assertIn(found, message)
                self.assertIn(message, r.stderr)
                self.assertEqual(shown['page'], 'modules')   # nothing shown on the Profile page

    @unittest.skipUnless(os.path.exists(os.path.join(base.DATA_DIR, 'train-images-idx3-ubyte.gz')),
                         'Fashion-MNIST is not installed')
    def test_live_step(self):
        d = tempfile.mkdtemp(dir=base.TMP)
        dump, tree, state = (os.path.join(d, n) for n in ('p.tsv', 't.tsv', 's.tsv'))
        r = base.run_viewer('--train', '--train-steps', '3', '--limit', '192', '--batch-size', '64',
                            '--threads', '2', '--profile-step', '2', '--page', 'profile',
                            '--dump-profile', dump, '--dump-tree', tree, '--dump-state', state)
        self.assert_ok(r)
        got = read_profile(dump)
        modules = [row[:2] for row in base.read_tree(tree)]
        self.assertEqual(sorted((row[0], row[1]) for row in got['module']), sorted(tuple(m) for m in modules))
        self.assertTrue(all(row[2] == 1 for row in got['module']), got['module'])
        step_ns = got['step'][0]
        root = [row for row in got['module'] if row[0] == ''][0]
        layers = [row for row in got['module'] if row[0] != '']
        self.assertLessEqual(root[3], step_ns)
        self.assertEqual(root[4], root[3] - sum(row[3] for row in layers))
        for kind in ('module', 'backward', 'optimizer', 'kernel'):
            self.assertGreater(got['category'][kind], 0, kind)
        self.assertLessEqual(got['category']['module'] + got['category']['backward'] +
                             got['category']['optimizer'], step_ns)
        # every range inside one of the row above it, on its thread
        ranges = got['range']
        self.assertEqual(ranges[0]['cat'], 'profiler_step')
        for rg in ranges:
            if rg['depth'] == 0:
                continue
            self.assertTrue(any(p['depth'] == rg['depth'] - 1 and p['thread'] == rg['thread'] and
                                p['start'] <= rg['start'] and
                                rg['start'] + rg['dur'] <= p['start'] + p['dur'] for p in ranges), rg)
        shown = base.read_state(state)
        self.assertEqual(shown['page'], 'profile')
        self.assertEqual(shown['message'], [])


    @unittest.skipUnless(os.path.exists(os.path.join(base.DATA_DIR, 'train-images-idx3-ubyte.gz')),
                         'Fashion-MNIST is not installed')
    def test_profile_a_step(self):
        """Profile a Step (--profile-next does what the button does): with nothing training, one
        step of the default CNN is trained and profiled, then training stops; while training,
        the step after the one in flight is profiled and training goes on."""
        d = tempfile.mkdtemp(dir=base.TMP)
        dump, loss, state, tree = (os.path.join(d, n) for n in ('p.tsv', 'l.tsv', 's.tsv', 't.tsv'))
        saved, reread = os.path.join(d, 'saved.json'), os.path.join(d, 'r.tsv')
        r = base.run_viewer('--profile-next', '--limit', '64', '--batch-size', '32', '--dump-tree', tree,
                            '--dump-profile', dump, '--dump-loss', loss, '--dump-state', state,
                            '--save-trace', saved)
        self.assert_ok(r)
        # saved as a chrome trace (Save the Profile) and opened again: the same table and ranges
        r = base.run_viewer(saved, '--dump-profile', reread, timeout=60)
        self.assert_ok(r)
        live, again = read_profile(dump), read_profile(reread)
        self.assertEqual(again['module'], live['module'])
        self.assertEqual([(b['name'], b['start'], b['dur'], b['row']) for b in again['range']],
                         [(b['name'], b['start'], b['dur'], b['row']) for b in live['range']])
        self.assertEqual(again['step'], live['step'])
        # the statistics hooks were blocked for the profiled step: none gathered
        rows = base.read_tree(tree)
        self.assertEqual(len(rows), 14)
        self.assertTrue(all(row[3:] == [''] * 6 for row in rows), rows)
        with open(loss) as f:
            self.assertEqual(len(f.read().splitlines()), 1)     # one step, then it stopped
        got = read_profile(dump)
        self.assertTrue(got['summary'].startswith('training step 1 · '), got['summary'])
        self.assertEqual(len(got['module']), 14)                # the default CNN's modules
        self.assertGreater(got['category']['optimizer'], 0)
        shown = base.read_state(state)
        self.assertEqual((shown['page'], shown['message']), ('profile', []))

        r = base.run_viewer('--train', '--train-steps', '3', '--limit', '192', '--batch-size', '32',
                            '--profile-next', '--dump-profile', dump, '--dump-loss', loss)
        self.assert_ok(r)
        with open(loss) as f:
            self.assertEqual(len(f.read().splitlines()), 3)
        self.assertTrue(read_profile(dump)['summary'].startswith('training step 2 · '))

        # nothing profiled, or a folder that is not there: nothing saved, the window says why
        r = base.run_viewer(saved, '--save-trace', os.path.join(d, 'again.json'), '--dump-state', state,
                            timeout=60)
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        self.assertIn('cannot save a trace to %s: expected a step profiled here, found none'
                      % os.path.join(d, 'again.json'), r.stderr)
        nowhere = os.path.join(d, 'no-such-folder', 't.json')
        r = base.run_viewer('--profile-next', '--limit', '64', '--batch-size', '32', '--save-trace', nowhere,
                            timeout=120)
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        self.assertIn('Could not write the chrome trace to ' + nowhere, r.stderr)

        # nothing to train on: the window says why, a scripted run exits 1
        r = base.run_viewer('--profile-next', '--data-dir', d, '--dump-state', state, timeout=60)
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        self.assertIn('cannot train: Fashion-MNIST not found', base.read_state(state)['message'][0])


if __name__ == '__main__':
    if len(sys.argv) < 2:
        sys.exit('usage: test_gnn_viewer_profile.py BUILD_DIR/tools/gnn-viewer')
    base.GNN_VIEWER = os.path.abspath(sys.argv.pop(1))
    if shutil.which('xvfb-run') is None:
        print('xvfb-run is missing: skipped')
        sys.exit(77)
    base.TMP = tempfile.mkdtemp(prefix='gnn-viewer-profile-test-')
    try:
        result = unittest.main(exit=False, verbosity=2).result
    finally:
        shutil.rmtree(base.TMP, ignore_errors=True)
    sys.exit(0 if result.wasSuccessful() else 1)
